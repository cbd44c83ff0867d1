//! One network per device serving every search thread of a process (DESIGN.md's inference
//! server), built so that the device never waits on the host.
//!
//! - A search thread encodes its leaves on its own core and sends the batch without waiting
//!   for it ([`PipelinedEvaluator::submit`]): a self-play worker keeps two or more batches in
//!   flight, and walks its other trees while the device evaluates one.
//! - [`SERVER_THREADS`] server threads share the device, which is a lock around the engine.
//!   While one holds it for a pass, another gathers and packs the next batch from whatever
//!   threads have sent, and takes the device the moment it is let go (the thread letting go
//!   wakes it through the request queue); replies are copied out after that. No thread
//!   waits a fixed time for batches to fill: a device that is free runs whatever is
//!   waiting, up to the largest pass (KataGo's NN server).
//!
//! A GPU thus sees batches of all threads' leaves together, back to back, instead of many
//! small ones with gaps between them.
//!
//! A device that fails stops the server for good, and nobody waits on it: the failing pass's
//! requests and every queued one are dropped, the other thread stops at its next look at the
//! queue or the device, and sends from then on fail. Each request carries its own reply
//! channel, so a client whose request is dropped (wherever that happens) wakes with the
//! error instead of waiting for an answer that cannot come.

use crate::HostBatch;
use crate::backend::{Backend, bucket_for};
use crate::evaluator::NetEvaluator;
use crate::host_batch::{grouped_by_grid, runs_of_one_grid};
#[cfg(feature = "torch")]
use crate::model::Network;
use crate::outputs::{Outputs, Rows, write_evaluations};
use game::{DeviceError, Evaluation, Evaluator, PipelinedEvaluator, Planes};
use std::collections::VecDeque;
use std::marker::PhantomData;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender, TryRecvError};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, PoisonError, TryLockError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Server threads per device: one packs and unpacks while the other's pass runs (KataGo runs
/// more than one NN server thread per GPU for this).
pub const SERVER_THREADS: usize = 2;

/// How long a thread that has gathered a batch waits for a [`Message::DeviceFree`] before it
/// looks at the device again anyway.
const DEVICE_CHECK: Duration = Duration::from_millis(1);

/// What the server threads read from their queue.
enum Message {
    Evaluate(Request),
    /// A pass has let the device go (or the device failed): a thread gathering the next
    /// batch may take it, or find the server failed.
    DeviceFree,
    /// The handle and every client are gone: each thread ends at one of these.
    Stop,
}

/// A search thread's batch, with the channel its rows go back on (one per request: dropping
/// the request tells the client that no answer will come).
struct Request {
    batch: HostBatch,
    used: usize,
    reply: Sender<Reply>,
}

/// A thread's rows of a merged batch, with its batch buffer back for reuse.
struct Reply {
    batch: HostBatch,
    policy: Vec<f32>,
    wdl: Vec<f32>,
    lead: Vec<f32>,
}

/// How much merging the server did, for benchmarks and logs.
#[derive(Default)]
struct Counters {
    /// Nanoseconds the device was held for passes.
    device_nanos: AtomicU64,
    forward_passes: AtomicU64,
    requests: AtomicU64,
    positions: AtomicU64,
}

/// What the server threads share.
struct Shared {
    /// The device: held for the length of a pass.
    backend: Mutex<Backend>,
    /// Requests; the thread holding this lock is the one gathering the next batch. `None`
    /// once the device failed: the queued requests are dropped with it, and sends fail.
    inbox: Mutex<Option<Inbox>>,
    /// Why the server stopped serving, once it has.
    failure: OnceLock<DeviceError>,
    device_name: String,
    /// The handle and its clients alive: the last to go stops the threads.
    owners: AtomicUsize,
    counters: Counters,
    /// Padded pass sizes, ascending; the last is the largest pass.
    buckets: Vec<usize>,
}

/// The request queue, and a request that did not fit the last pass gathered from it (too
/// many rows, another board size): kept here, not by the thread that gathered it, so that
/// whichever thread gathers next starts with it.
struct Inbox {
    receiver: Receiver<Message>,
    held: Option<Request>,
}

impl Shared {
    fn inbox(&self) -> MutexGuard<'_, Option<Inbox>> {
        self.inbox.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn has_failed(&self) -> bool {
        self.failure.get().is_some()
    }

    /// What a client whose request went unanswered is told: the device's failure.
    fn failure(&self) -> DeviceError {
        self.failure.get().cloned().unwrap_or_else(|| DeviceError {
            device: self.device_name.clone(),
            message: "the inference server stopped".to_owned(),
        })
    }

    /// The server stops serving for `error` (the first recorded, if two come): see
    /// [`Shared::stop`].
    fn fail(&self, error: DeviceError, wake: &Sender<Message>) {
        let _ = self.failure.set(error);
        self.stop(wake);
    }

    /// Once a failure is recorded (before, so that a client woken by a dropped request finds
    /// it): every queued request is dropped, its client waking with the error; sends fail from
    /// now on; and the other thread, woken through `wake`, stops too. The caller must hold
    /// neither the device nor the inbox: the other thread may hold the inbox while it waits
    /// for the device.
    fn stop(&self, wake: &Sender<Message>) {
        // A thread blocked on the queue holds the inbox; this wakes it to see the failure.
        let _ = wake.send(Message::DeviceFree);
        self.inbox().take();
    }
}

/// The handle clients are made from. The server threads end when this handle and every
/// client are gone, or when the device fails.
pub struct InferenceServer<G> {
    requests: Sender<Message>,
    shared: Arc<Shared>,
    /// The server threads, until [`InferenceServer::shut_down`] waits for them (which lets
    /// the handle's ownership go: then empty).
    threads: Vec<JoinHandle<()>>,
    game: PhantomData<fn(&G)>,
}

impl<G: Planes> InferenceServer<G> {
    /// Serves `evaluator`'s network (or simulated device) from [`SERVER_THREADS`] threads.
    pub fn start(evaluator: NetEvaluator<G>) -> Self {
        let (backend, buckets) = evaluator.into_backend();
        let (requests, inbox) = mpsc::channel();
        let shared = Arc::new(Shared {
            device_name: backend.name().to_owned(),
            backend: Mutex::new(backend),
            inbox: Mutex::new(Some(Inbox {
                receiver: inbox,
                held: None,
            })),
            failure: OnceLock::new(),
            owners: AtomicUsize::new(1),
            counters: Counters::default(),
            buckets,
        });
        let threads = (0..SERVER_THREADS)
            .map(|index| {
                let (shared, wake) = (Arc::clone(&shared), requests.clone());
                std::thread::Builder::new()
                    .name(format!("inference-{index}"))
                    .spawn(move || {
                        let stopped = StopOnPanic {
                            shared: &shared,
                            wake: &wake,
                        };
                        serve(stopped.shared, stopped.wake);
                    })
                    .expect("cannot start an inference server thread")
            })
            .collect();
        InferenceServer {
            requests,
            shared,
            threads,
            game: PhantomData,
        }
    }

    /// An evaluator for one search thread.
    pub fn client(&self) -> ServerClient<G> {
        self.shared.owners.fetch_add(1, Ordering::Relaxed);
        ServerClient {
            shared: Arc::clone(&self.shared),
            requests: self.requests.clone(),
            spare: Vec::new(),
            submitted: VecDeque::new(),
            pending: VecDeque::new(),
            max_batch: self.max_batch(),
            game: PhantomData,
        }
    }

    /// Serves `network` (same architecture) from the next pass on: batches sent after this
    /// returns run on it (batches sent before may too).
    #[cfg(feature = "torch")]
    pub fn replace_network(&self, network: Network) {
        self.shared
            .backend
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .replace_network(network);
    }

    /// The largest forward pass.
    pub fn max_batch(&self) -> usize {
        *self.shared.buckets.last().expect("at least one bucket")
    }

    /// Where the passes run: `cpu`, `cuda:N` or `sim:A_MS,B_US`.
    pub fn device_name(&self) -> &str {
        &self.shared.device_name
    }

    /// Why the server stopped serving, if its device failed.
    pub fn failure(&self) -> Option<DeviceError> {
        self.shared.failure.get().cloned()
    }

    /// Lets the server go and waits for its threads to end, which they do once every client
    /// is gone, or at once if the device failed; the device's failure, if it did.
    pub fn shut_down(mut self) -> Result<(), DeviceError> {
        release_owner(&self.shared, &self.requests);
        for thread in std::mem::take(&mut self.threads) {
            // A thread that panicked has stopped the server with an error of its own.
            let _ = thread.join();
        }
        self.failure().map_or(Ok(()), Err)
    }

    /// Positions per forward pass so far: how many threads' leaves the server merged.
    pub fn mean_batch(&self) -> f64 {
        let counters = &self.shared.counters;
        let passes = counters.forward_passes.load(Ordering::Relaxed);
        counters.positions.load(Ordering::Relaxed) as f64 / passes.max(1) as f64
    }

    /// Time the device was held for passes so far: against wall time, the device's busy
    /// share.
    pub fn device_time(&self) -> Duration {
        Duration::from_nanos(self.shared.counters.device_nanos.load(Ordering::Relaxed))
    }

    /// Forward passes so far.
    pub fn forward_passes(&self) -> u64 {
        self.shared.counters.forward_passes.load(Ordering::Relaxed)
    }

    /// Requests per forward pass so far.
    pub fn mean_requests_per_pass(&self) -> f64 {
        let counters = &self.shared.counters;
        let passes = counters.forward_passes.load(Ordering::Relaxed);
        counters.requests.load(Ordering::Relaxed) as f64 / passes.max(1) as f64
    }
}

/// One owner (the handle or a client) is gone; the last one stops the server threads, which
/// hold senders of their own (to wake each other) and so never see the queue close.
fn release_owner(shared: &Shared, requests: &Sender<Message>) {
    if shared.owners.fetch_sub(1, Ordering::AcqRel) == 1 {
        for _ in 0..SERVER_THREADS {
            let _ = requests.send(Message::Stop);
        }
    }
}

/// Stops the server if its thread panics (a bug, not a device error, which comes back as an
/// error): its clients are woken instead of waiting for good. The panic itself is printed.
struct StopOnPanic<'a> {
    shared: &'a Shared,
    wake: &'a Sender<Message>,
}

impl Drop for StopOnPanic<'_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            let error = DeviceError {
                device: self.shared.device_name.clone(),
                message: "an inference server thread panicked".to_owned(),
            };
            self.shared.fail(error, self.wake);
        }
    }
}

/// A server thread: gathers a batch while the device is busy, runs it when the device is
/// free, wakes the next gatherer, replies; ends at a [`Message::Stop`], or when the device
/// fails (in its pass or the other thread's).
fn serve(shared: &Shared, wake: &Sender<Message>) {
    let max_batch = *shared.buckets.last().expect("at least one bucket");
    let mut packed = HostBatch::default();
    let mut outputs = Outputs::default();
    let mut parts: Vec<Request> = Vec::new();
    let mut stopping = false;
    while !stopping {
        let mut guard = shared.inbox();
        let Some(Inbox {
            receiver: inbox,
            held,
        }) = &mut *guard
        else {
            return; // The device failed.
        };
        let first = match held.take() {
            Some(request) => request,
            None => loop {
                match inbox.recv() {
                    Ok(Message::Evaluate(request)) => break request,
                    Ok(Message::DeviceFree) if shared.has_failed() => return,
                    Ok(Message::DeviceFree) => {}
                    Ok(Message::Stop) | Err(_) => return,
                }
            },
        };
        let layout = first.batch.layout().expect("an encoded batch");
        packed.clear(layout.0, layout.1);
        let mut fits = |request: Request, packed: &mut HostBatch, held: &mut Option<Request>| {
            if packed.rows() + request.used <= max_batch && request.batch.layout() == Some(layout) {
                packed.append(&request.batch, request.used);
                parts.push(request);
            } else {
                *held = Some(request);
            }
        };
        fits(first, &mut packed, held);
        // Take whatever is waiting; while the device is busy, wait for more or for it to be
        // let go.
        let backend = loop {
            while held.is_none() && packed.rows() < max_batch && !stopping {
                match inbox.try_recv() {
                    Ok(Message::Evaluate(request)) => fits(request, &mut packed, held),
                    Ok(Message::DeviceFree) => {}
                    Ok(Message::Stop) => stopping = true,
                    Err(TryRecvError::Empty | TryRecvError::Disconnected) => break,
                }
            }
            if stopping || held.is_some() || packed.rows() >= max_batch {
                break shared.backend.lock();
            }
            match shared.backend.try_lock() {
                Ok(backend) => break Ok(backend),
                Err(TryLockError::Poisoned(poisoned)) => break Err(poisoned),
                Err(TryLockError::WouldBlock) => {}
            }
            match inbox.recv_timeout(DEVICE_CHECK) {
                Ok(Message::Evaluate(request)) => fits(request, &mut packed, held),
                Ok(Message::DeviceFree) | Err(RecvTimeoutError::Timeout) => {}
                Ok(Message::Stop) | Err(RecvTimeoutError::Disconnected) => stopping = true,
            }
        };
        drop(guard);
        let backend = backend.unwrap_or_else(PoisonError::into_inner);
        if shared.has_failed() {
            // The other thread's pass failed while this one gathered: its requests are
            // dropped here, which wakes their clients.
            return;
        }
        let used = packed.rows();
        packed.pad_to(bucket_for(&shared.buckets, used));
        let started = Instant::now();
        let pass = backend.forward(&packed, used, false, &mut outputs);
        let device_time = started.elapsed();
        if let Err(error) = pass {
            // Recorded while the device is held, so that the other thread, which takes it
            // next, runs nothing more on it.
            let _ = shared.failure.set(error);
            drop(backend);
            shared.stop(wake);
            // This pass's requests are dropped here, after the failure is recorded.
            return;
        }
        drop(backend);
        // The queue outlives this thread's sender: the other thread may be gathering.
        let _ = wake.send(Message::DeviceFree);
        let counters = &shared.counters;
        counters
            .device_nanos
            .fetch_add(device_time.as_nanos() as u64, Ordering::Relaxed);
        counters.forward_passes.fetch_add(1, Ordering::Relaxed);
        counters
            .requests
            .fetch_add(parts.len() as u64, Ordering::Relaxed);
        counters.positions.fetch_add(used as u64, Ordering::Relaxed);
        let mut row = 0;
        for request in parts.drain(..) {
            let rows = outputs.rows(row..row + request.used, layout.1);
            row += request.used;
            // A client gone (its thread stopped) needs no answer.
            let _ = request.reply.send(Reply {
                batch: request.batch,
                policy: rows.policy.to_vec(),
                wdl: rows.wdl.to_vec(),
                lead: rows.lead.to_vec(),
            });
        }
    }
}

/// A search thread's evaluator: encodes on the caller's thread, evaluates on the server.
/// Batches can be left in flight ([`PipelinedEvaluator`]); [`Evaluator::evaluate`] waits for
/// its own and expects none other in flight. Once the device has failed, every call fails.
pub struct ServerClient<G> {
    shared: Arc<Shared>,
    requests: Sender<Message>,
    /// Batch buffers back from the server, for reuse.
    spare: Vec<HostBatch>,
    /// Each submitted batch not yet received: how many requests it was split into (a batch
    /// larger than a pass, or of several grids, is sent as several), and the order its
    /// positions were sent in where it is not theirs ([`grouped_by_grid`]).
    submitted: VecDeque<(usize, Option<Vec<usize>>)>,
    /// Where each request's answer comes, oldest first.
    pending: VecDeque<Receiver<Reply>>,
    max_batch: usize,
    game: PhantomData<fn(&G)>,
}

impl<G> Drop for InferenceServer<G> {
    fn drop(&mut self) {
        // A handle that was shut down has let its ownership go already.
        if !self.threads.is_empty() {
            release_owner(&self.shared, &self.requests);
        }
    }
}

impl<G> Drop for ServerClient<G> {
    fn drop(&mut self) {
        release_owner(&self.shared, &self.requests);
    }
}

impl<G: Planes> PipelinedEvaluator<G> for ServerClient<G> {
    fn submit(&mut self, positions: &[&G]) -> Result<(), DeviceError> {
        let order = grouped_by_grid(positions);
        let grouped: Vec<&G>;
        let positions = match &order {
            Some(order) => {
                grouped = order.iter().map(|&index| positions[index]).collect();
                &grouped[..]
            }
            None => positions,
        };
        let mut requests = 0;
        for run in runs_of_one_grid(positions, self.max_batch) {
            let chunk = &positions[run];
            let mut batch = self.spare.pop().unwrap_or_default();
            batch.encode(chunk, chunk.len());
            let (reply, answer) = mpsc::channel();
            let request = Request {
                batch,
                used: chunk.len(),
                reply,
            };
            // The queue is gone once the device has failed.
            self.requests
                .send(Message::Evaluate(request))
                .map_err(|_| self.shared.failure())?;
            self.pending.push_back(answer);
            requests += 1;
        }
        self.submitted.push_back((requests, order));
        Ok(())
    }

    fn receive(&mut self, out: &mut [Evaluation]) -> Result<(), DeviceError> {
        let (requests, order) = self
            .submitted
            .pop_front()
            .expect("receive follows a submit");
        let Some(order) = order else {
            return self.receive_in_order(requests, out);
        };
        let mut answers = vec![Evaluation::default(); out.len()];
        self.receive_in_order(requests, &mut answers)?;
        for (answer, &index) in answers.iter_mut().zip(&order) {
            std::mem::swap(&mut out[index], answer);
        }
        Ok(())
    }
}

impl<G> ServerClient<G> {
    /// Takes the answers to the `requests` requests of one batch into `out`, in the order the
    /// positions were sent.
    fn receive_in_order(
        &mut self,
        requests: usize,
        out: &mut [Evaluation],
    ) -> Result<(), DeviceError> {
        let mut start = 0;
        for _ in 0..requests {
            let answer = self.pending.pop_front().expect("one answer per request");
            // The request was dropped unanswered: the device failed.
            let reply = answer.recv().map_err(|_| self.shared.failure())?;
            let end = start + reply.lead.len();
            let rows = Rows {
                policy: &reply.policy,
                wdl: &reply.wdl,
                lead: &reply.lead,
                ownership: &[],
            };
            write_evaluations(rows, &mut out[start..end]);
            start = end;
            self.spare.push(reply.batch);
        }
        assert_eq!(start, out.len(), "one evaluation per position");
        Ok(())
    }
}

impl<G: Planes> Evaluator<G> for ServerClient<G> {
    fn evaluate(&mut self, positions: &[&G], out: &mut [Evaluation]) -> Result<(), DeviceError> {
        assert!(
            self.submitted.is_empty(),
            "evaluate with batches in flight would receive theirs"
        );
        assert_eq!(positions.len(), out.len(), "one evaluation per position");
        if positions.is_empty() {
            return Ok(());
        }
        self.submit(positions)?;
        self.receive(out)
    }
}
