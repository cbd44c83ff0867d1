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

use crate::HostBatch;
use crate::evaluator::{Engine, NetEvaluator, Outputs, bucket_for, write_evaluations};
use crate::model::Network;
use game::{Evaluation, Evaluator, PipelinedEvaluator, Planes};
use std::collections::VecDeque;
use std::marker::PhantomData;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender, TryRecvError};
use std::sync::{Arc, Mutex, PoisonError, TryLockError};
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
    /// A pass has let the device go: a thread gathering the next batch may take it.
    DeviceFree,
    /// The handle and every client are gone: each thread ends at one of these.
    Stop,
}

/// A search thread's batch, with where to send its rows.
struct Request {
    batch: HostBatch,
    used: usize,
    ticket: u64,
    reply: Sender<Reply>,
}

/// A thread's rows of a merged batch, with its batch buffer back for reuse.
struct Reply {
    batch: HostBatch,
    ticket: u64,
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
    engine: Mutex<Engine>,
    /// Requests; the thread holding this lock is the one gathering the next batch.
    inbox: Mutex<Inbox>,
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

/// The handle clients are made from. The server threads end when this handle and every
/// client are gone.
pub struct InferenceServer<G> {
    requests: Sender<Message>,
    shared: Arc<Shared>,
    device_name: String,
    game: PhantomData<fn(&G)>,
}

impl<G: Planes> InferenceServer<G> {
    /// Serves `evaluator`'s network (or simulated device) from [`SERVER_THREADS`] threads.
    pub fn start(evaluator: NetEvaluator<G>) -> Self {
        let device_name = evaluator.device_name();
        let (engine, buckets) = evaluator.into_engine();
        let (requests, inbox) = mpsc::channel();
        let shared = Arc::new(Shared {
            engine: Mutex::new(engine),
            inbox: Mutex::new(Inbox {
                receiver: inbox,
                held: None,
            }),
            owners: AtomicUsize::new(1),
            counters: Counters::default(),
            buckets,
        });
        for index in 0..SERVER_THREADS {
            let (shared, wake) = (Arc::clone(&shared), requests.clone());
            std::thread::Builder::new()
                .name(format!("inference-{index}"))
                .spawn(move || serve(&shared, &wake))
                .expect("cannot start an inference server thread");
        }
        InferenceServer {
            requests,
            shared,
            device_name,
            game: PhantomData,
        }
    }

    /// An evaluator for one search thread.
    pub fn client(&self) -> ServerClient<G> {
        let (reply, replies) = mpsc::channel();
        self.shared.owners.fetch_add(1, Ordering::Relaxed);
        ServerClient {
            shared: Arc::clone(&self.shared),
            requests: self.requests.clone(),
            reply,
            replies,
            spare: Vec::new(),
            next_ticket: 0,
            submitted: VecDeque::new(),
            arrived: Vec::new(),
            max_batch: self.max_batch(),
            game: PhantomData,
        }
    }

    /// Serves `network` (same architecture) from the next pass on: batches sent after this
    /// returns run on it (batches sent before may too).
    pub fn replace_network(&self, network: Network) {
        self.shared
            .engine
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
        &self.device_name
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

/// A server thread: gathers a batch while the device is busy, runs it when the device is
/// free, wakes the next gatherer, replies; ends at a [`Message::Stop`].
fn serve(shared: &Shared, wake: &Sender<Message>) {
    let max_batch = *shared.buckets.last().expect("at least one bucket");
    let mut packed = HostBatch::default();
    let mut outputs = Outputs::default();
    let mut parts: Vec<Request> = Vec::new();
    let mut stopping = false;
    while !stopping {
        let mut guard = shared.inbox.lock().unwrap_or_else(PoisonError::into_inner);
        let Inbox {
            receiver: inbox,
            held,
        } = &mut *guard;
        let first = match held.take() {
            Some(request) => request,
            None => loop {
                match inbox.recv() {
                    Ok(Message::Evaluate(request)) => break request,
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
        let engine = loop {
            while held.is_none() && packed.rows() < max_batch && !stopping {
                match inbox.try_recv() {
                    Ok(Message::Evaluate(request)) => fits(request, &mut packed, held),
                    Ok(Message::DeviceFree) => {}
                    Ok(Message::Stop) => stopping = true,
                    Err(TryRecvError::Empty | TryRecvError::Disconnected) => break,
                }
            }
            if stopping || held.is_some() || packed.rows() >= max_batch {
                break shared.engine.lock();
            }
            match shared.engine.try_lock() {
                Ok(engine) => break Ok(engine),
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
        let engine = engine.unwrap_or_else(PoisonError::into_inner);
        let used = packed.rows();
        packed.pad_to(bucket_for(&shared.buckets, used));
        let started = Instant::now();
        engine.forward(&packed, used, &mut outputs);
        let device_time = started.elapsed();
        drop(engine);
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
            let (policy, wdl, lead) = outputs.rows(row..row + request.used, layout.1);
            row += request.used;
            // A client gone (its thread stopped) needs no answer.
            let _ = request.reply.send(Reply {
                batch: request.batch,
                ticket: request.ticket,
                policy: policy.to_vec(),
                wdl: wdl.to_vec(),
                lead: lead.to_vec(),
            });
        }
    }
}

/// A search thread's evaluator: encodes on the caller's thread, evaluates on the server.
/// Batches can be left in flight ([`PipelinedEvaluator`]); [`Evaluator::evaluate`] waits for
/// its own and expects none other in flight.
pub struct ServerClient<G> {
    shared: Arc<Shared>,
    requests: Sender<Message>,
    reply: Sender<Reply>,
    replies: Receiver<Reply>,
    /// Batch buffers back from the server, for reuse.
    spare: Vec<HostBatch>,
    next_ticket: u64,
    /// Each submitted batch not yet received: its first ticket and how many requests it was
    /// split into (a batch larger than a pass is sent as several).
    submitted: VecDeque<(u64, usize)>,
    /// Replies that came before an older one (two server threads may answer out of order).
    arrived: Vec<Reply>,
    max_batch: usize,
    game: PhantomData<fn(&G)>,
}

impl<G> Drop for InferenceServer<G> {
    fn drop(&mut self) {
        release_owner(&self.shared, &self.requests);
    }
}

impl<G> Drop for ServerClient<G> {
    fn drop(&mut self) {
        release_owner(&self.shared, &self.requests);
    }
}

impl<G> ServerClient<G> {
    /// The reply to `ticket`, waiting for it if it has not come yet.
    fn reply_to(&mut self, ticket: u64) -> Reply {
        if let Some(index) = self.arrived.iter().position(|reply| reply.ticket == ticket) {
            return self.arrived.swap_remove(index);
        }
        loop {
            let reply = self.replies.recv().expect("the inference server stopped");
            if reply.ticket == ticket {
                return reply;
            }
            self.arrived.push(reply);
        }
    }
}

impl<G: Planes> PipelinedEvaluator<G> for ServerClient<G> {
    fn submit(&mut self, positions: &[&G]) {
        let first_ticket = self.next_ticket;
        for chunk in positions.chunks(self.max_batch) {
            let mut batch = self.spare.pop().unwrap_or_default();
            batch.encode(chunk, chunk.len());
            let request = Request {
                batch,
                used: chunk.len(),
                ticket: self.next_ticket,
                reply: self.reply.clone(),
            };
            self.next_ticket += 1;
            self.requests
                .send(Message::Evaluate(request))
                .expect("the inference server stopped");
        }
        let chunks = (self.next_ticket - first_ticket) as usize;
        self.submitted.push_back((first_ticket, chunks));
    }

    fn receive(&mut self, out: &mut [Evaluation]) {
        let (first_ticket, chunks) = self
            .submitted
            .pop_front()
            .expect("receive follows a submit");
        let mut start = 0;
        for ticket in first_ticket..first_ticket + chunks as u64 {
            let reply = self.reply_to(ticket);
            let end = start + reply.lead.len();
            write_evaluations(&reply.policy, &reply.wdl, &reply.lead, &mut out[start..end]);
            start = end;
            self.spare.push(reply.batch);
        }
        assert_eq!(start, out.len(), "one evaluation per position");
    }
}

impl<G: Planes> Evaluator<G> for ServerClient<G> {
    fn evaluate(&mut self, positions: &[&G], out: &mut [Evaluation]) {
        assert!(
            self.submitted.is_empty(),
            "evaluate with batches in flight would receive theirs"
        );
        assert_eq!(positions.len(), out.len(), "one evaluation per position");
        if positions.is_empty() {
            return;
        }
        self.submit(positions);
        self.receive(out);
    }
}
