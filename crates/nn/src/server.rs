//! One network per device serving every search thread of a process (DESIGN.md's inference
//! server): each thread encodes its leaves on its own core and sends the batch; the server
//! thread merges whatever batches are waiting into one forward pass and sends each thread its
//! rows back. While the device runs one merged batch, the threads search and encode the next,
//! so search and inference overlap, and a GPU sees batches of all threads' leaves together
//! instead of many small ones from threads holding copies of the network.

use crate::evaluator::write_evaluations;
use crate::{HostBatch, NetEvaluator, Network};
use game::Planes;
use game::{Evaluation, Evaluator};
use std::marker::PhantomData;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::time::{Duration, Instant};

enum Message {
    Evaluate {
        batch: HostBatch,
        used: usize,
        reply: Sender<Reply>,
    },
    Replace(Box<Network>),
}

/// A thread's rows of a merged batch, with its batch buffer back for reuse.
struct Reply {
    batch: HostBatch,
    rows: Rows,
}

/// Softmaxed policies, WDL probabilities and leads of some positions, one row each.
struct Rows {
    policy: Vec<f32>,
    wdl: Vec<f32>,
    lead: Vec<f32>,
}

/// How long the server holds a batch for the threads that have not sent theirs yet: about what
/// a thread's search takes between two batches, so that batches of all threads meet, and
/// short enough that a thread busy elsewhere (finishing a game, reloading) stalls no one long.
const GATHER_WAIT: Duration = Duration::from_millis(2);

/// How much merging the server did, for benchmarks and logs, and how many clients there are.
#[derive(Default)]
struct Counters {
    clients: AtomicUsize,
    /// Nanoseconds in the network (see `NetEvaluator::network_time`).
    network_nanos: AtomicU64,
    forward_passes: AtomicU64,
    requests: AtomicU64,
    positions: AtomicU64,
}

/// The handle clients are made from. The server thread ends when this handle and every
/// client are gone.
pub struct InferenceServer<G> {
    requests: Sender<Message>,
    counters: Arc<Counters>,
    max_batch: usize,
    game: PhantomData<fn(&G)>,
}

impl<G: Planes> InferenceServer<G> {
    /// Starts serving `evaluator`'s network on its device from a thread of its own.
    pub fn start(evaluator: NetEvaluator<G>) -> Self {
        Self::start_gathering(evaluator, GATHER_WAIT)
    }

    /// [`InferenceServer::start`], holding each batch up to `gather_wait` for the clients
    /// that have not sent theirs (a batch runs at once when every client has sent one, or
    /// when it fills the largest pass). A long wait makes merging certain: a test's threads
    /// that meet at a barrier and each send a batch get one forward pass between them.
    pub fn start_gathering(evaluator: NetEvaluator<G>, gather_wait: Duration) -> Self {
        let (requests, inbox) = mpsc::channel();
        let counters = Arc::new(Counters::default());
        let max_batch = *evaluator.buckets().last().expect("at least one bucket");
        let thread_counters = Arc::clone(&counters);
        std::thread::Builder::new()
            .name("inference".into())
            .spawn(move || serve(evaluator, &inbox, &thread_counters, gather_wait))
            .expect("cannot start the inference server's thread");
        InferenceServer {
            requests,
            counters,
            max_batch,
            game: PhantomData,
        }
    }

    /// An evaluator for one search thread.
    pub fn client(&self) -> ServerClient<G> {
        let (reply, replies) = mpsc::channel();
        self.counters.clients.fetch_add(1, Ordering::Relaxed);
        ServerClient {
            counters: Arc::clone(&self.counters),
            requests: self.requests.clone(),
            reply,
            replies,
            batch: Some(HostBatch::default()),
            max_batch: self.max_batch,
            game: PhantomData,
        }
    }

    /// Serves `network` (same architecture) from the next forward pass on.
    pub fn replace_network(&self, network: Network) {
        // The thread only stops once this handle is dropped, so the send cannot fail.
        let _ = self.requests.send(Message::Replace(Box::new(network)));
    }

    /// Positions per forward pass so far: how many threads' leaves the server merged.
    pub fn mean_batch(&self) -> f64 {
        let passes = self.counters.forward_passes.load(Ordering::Relaxed);
        self.counters.positions.load(Ordering::Relaxed) as f64 / passes.max(1) as f64
    }

    /// Time the server spent in the network so far.
    pub fn network_time(&self) -> Duration {
        Duration::from_nanos(self.counters.network_nanos.load(Ordering::Relaxed))
    }

    /// Requests per forward pass so far.
    pub fn mean_requests_per_pass(&self) -> f64 {
        let passes = self.counters.forward_passes.load(Ordering::Relaxed);
        self.counters.requests.load(Ordering::Relaxed) as f64 / passes.max(1) as f64
    }
}

/// The server thread: waits for a batch, gathers the other clients' batches (up to the
/// largest forward pass, waiting at most `gather_wait` for them), runs them as one and
/// replies; ends when every sender is gone.
fn serve<G: Planes>(
    mut evaluator: NetEvaluator<G>,
    inbox: &Receiver<Message>,
    counters: &Counters,
    gather_wait: Duration,
) {
    let max_batch = *evaluator.buckets().last().expect("at least one bucket");
    let mut waiting: Vec<(HostBatch, usize, Sender<Reply>)> = Vec::new();
    while let Ok(first) = inbox.recv() {
        let deadline = Instant::now() + gather_wait;
        let mut rows = 0;
        let mut next = Some(first);
        while let Some(message) = next.take() {
            match message {
                // Batches already waiting run on the weights they were sent under.
                Message::Replace(network) => {
                    run(&mut evaluator, &mut waiting, counters);
                    rows = 0;
                    evaluator.replace_network(*network);
                }
                Message::Evaluate { batch, used, reply } => {
                    rows += used;
                    waiting.push((batch, used, reply));
                }
            }
            let everyone = waiting.len() >= counters.clients.load(Ordering::Relaxed);
            if rows >= max_batch {
                break;
            }
            next = match inbox.try_recv() {
                Ok(message) => Some(message),
                Err(_) if everyone || waiting.is_empty() => None,
                Err(_) => inbox
                    .recv_timeout(deadline.saturating_duration_since(Instant::now()))
                    .ok(),
            };
        }
        run(&mut evaluator, &mut waiting, counters);
    }
}

fn run<G: Planes>(
    evaluator: &mut NetEvaluator<G>,
    waiting: &mut Vec<(HostBatch, usize, Sender<Reply>)>,
    counters: &Counters,
) {
    if waiting.is_empty() {
        return;
    }
    let parts: Vec<(&HostBatch, usize)> = waiting.iter().map(|(b, used, _)| (b, *used)).collect();
    let mut outputs: Vec<Option<Rows>> = (0..parts.len()).map(|_| None).collect();
    let network_before = evaluator.network_time();
    let passes = evaluator.forward_parts(&parts, |index, policy, wdl, lead| {
        outputs[index] = Some(Rows {
            policy: policy.to_vec(),
            wdl: wdl.to_vec(),
            lead: lead.to_vec(),
        });
    });
    let network_time = evaluator.network_time() - network_before;
    counters
        .network_nanos
        .fetch_add(network_time.as_nanos() as u64, Ordering::Relaxed);
    counters
        .forward_passes
        .fetch_add(passes as u64, Ordering::Relaxed);
    counters
        .requests
        .fetch_add(parts.len() as u64, Ordering::Relaxed);
    counters.positions.fetch_add(
        parts.iter().map(|&(_, used)| used as u64).sum(),
        Ordering::Relaxed,
    );
    drop(parts);
    for ((batch, _, reply), output) in waiting.drain(..).zip(outputs) {
        let rows = output.expect("every part evaluated");
        // A client gone (its thread stopped) needs no answer.
        let _ = reply.send(Reply { batch, rows });
    }
}

/// A search thread's evaluator: encodes on the caller's thread, evaluates on the server.
pub struct ServerClient<G> {
    counters: Arc<Counters>,
    requests: Sender<Message>,
    reply: Sender<Reply>,
    replies: Receiver<Reply>,
    batch: Option<HostBatch>,
    max_batch: usize,
    game: PhantomData<fn(&G)>,
}

impl<G> Drop for ServerClient<G> {
    fn drop(&mut self) {
        self.counters.clients.fetch_sub(1, Ordering::Relaxed);
    }
}

impl<G: Planes> Evaluator<G> for ServerClient<G> {
    fn evaluate(&mut self, positions: &[&G], out: &mut [Evaluation]) {
        assert_eq!(positions.len(), out.len(), "one evaluation per position");
        for (positions, out) in positions
            .chunks(self.max_batch)
            .zip(out.chunks_mut(self.max_batch))
        {
            let mut batch = self.batch.take().expect("returned by the last reply");
            batch.encode(positions, positions.len());
            let message = Message::Evaluate {
                batch,
                used: positions.len(),
                reply: self.reply.clone(),
            };
            self.requests
                .send(message)
                .expect("the inference server stopped");
            let reply = self.replies.recv().expect("the inference server stopped");
            let rows = &reply.rows;
            write_evaluations(&rows.policy, &rows.wdl, &rows.lead, out);
            self.batch = Some(reply.batch);
        }
    }
}
