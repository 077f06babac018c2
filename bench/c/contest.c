/*
 * The contest run of `npm run bench -- model` written as a plain C program, as a baseline for the
 * TypeScript model's speed: a fixed window of 50 packets over a Mahimahi trace link (the .down file),
 * 20 ms of delay each way, ACKs across the delay and then the uplink trace (the .up file), infinite
 * queues, one pass of the trace, 140 s. The same algorithms as shared/ (a binary heap of events in
 * time and scheduling order, ring buffers, the event log's columns, the metrics from the log), with
 * arrays and a switch where the model has objects and callbacks.
 *
 * Usage: contest <down> <up> [runs] [stream]. Prints the run's figures, one `key value` a line, then the
 * fastest and median time of `runs` timed runs after three untimed ones. With `stream`, the run keeps no
 * log: each row goes straight to the metrics' tally as it happens, as a plain C loop would do it (the
 * figures are the same; the log's digest is not printed, there being no log).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define OPPORTUNITY_BYTES 1504
#define ACK_BYTES 80
#define WINDOW 50
#define DELAY_MS 20.0
#define DURATION_MS 140000.0
#define TIMEOUT_MS 1000.0

enum { K_SEND = 0, K_ENQUEUE = 2, K_DEPART = 3, K_DELIVER = 4, K_ACK = 5, K_DROP = 6, K_TIMEOUT = 7 };
enum { EV_BEGIN, EV_TIMER, EV_DATA_WAKE, EV_ACK_WAKE, EV_DATA_DELAY, EV_ACK_DELAY };

static void die(const char *what) {
  fprintf(stderr, "contest.c: %s\n", what);
  exit(1);
}

static void *grown(void *p, size_t bytes) {
  void *q = realloc(p, bytes);
  if (!q) die("out of memory");
  return q;
}

/* ---- traces ---- */

typedef struct {
  int32_t *times;
  int n;
} Trace;

static Trace read_trace(const char *path) {
  FILE *f = fopen(path, "r");
  if (!f) die(path);
  Trace t = {NULL, 0};
  int cap = 0;
  long v;
  while (fscanf(f, "%ld", &v) == 1) {
    if (t.n == cap) t.times = grown(t.times, (size_t)(cap = cap ? cap * 2 : 4096) * sizeof(int32_t));
    t.times[t.n++] = (int32_t)v;
  }
  fclose(f);
  if (t.n == 0) die("empty trace");
  return t;
}

/* ---- the event log ---- */

typedef struct {
  int n, cap;
  double *t;
  uint8_t *kind, *flow;
  int32_t *seq, *bytes;
  float *value, *window;
  int kinds[256]; /* rows of each kind, counted as they come */
  struct Tally *stream; /* when set, rows go to it and are not stored */
} Log;

static void log_alloc(Log *l, int cap) {
  l->cap = cap;
  l->t = grown(l->t, cap * sizeof(double));
  l->kind = grown(l->kind, cap);
  l->flow = grown(l->flow, cap);
  l->seq = grown(l->seq, cap * sizeof(int32_t));
  l->bytes = grown(l->bytes, cap * sizeof(int32_t));
  l->value = grown(l->value, cap * sizeof(float));
  l->window = grown(l->window, cap * sizeof(float));
}

static void tally_row(struct Tally *y, double t, int kind, int bytes, float value);

static void log_push(Log *l, double t, int kind, int seq, int bytes, double value, double window) {
  if (l->stream) {
    l->n++;
    l->kinds[kind]++;
    tally_row(l->stream, t, kind, bytes, (float)value);
    return;
  }
  if (l->n == l->cap) log_alloc(l, l->cap * 2 > 1024 ? l->cap * 2 : 1024);
  int i = l->n++;
  l->kinds[kind]++;
  l->t[i] = t;
  l->kind[i] = (uint8_t)kind;
  l->flow[i] = 0;
  l->seq[i] = seq;
  l->bytes[i] = bytes;
  l->value[i] = (float)value;
  l->window[i] = (float)window;
}

/* ---- the scheduler: a binary heap ordered by time, then by when the event was scheduled ---- */

typedef struct {
  double t, order, arg;
  int what;
} Event;

typedef struct {
  Event *heap;
  int size, cap;
  double counter, now;
} Scheduler;

static int before(const Event *a, const Event *b) { return a->t < b->t || (a->t == b->t && a->order < b->order); }

static void schedule(Scheduler *s, double at, int what, double arg) {
  if (s->size == s->cap) s->heap = grown(s->heap, (size_t)(s->cap = s->cap ? s->cap * 2 : 1024) * sizeof(Event));
  Event e = {at < s->now ? s->now : at, s->counter++, arg, what};
  int i = s->size++;
  while (i > 0 && before(&e, &s->heap[(i - 1) / 2])) {
    s->heap[i] = s->heap[(i - 1) / 2];
    i = (i - 1) / 2;
  }
  s->heap[i] = e;
}

static Event pop(Scheduler *s) {
  Event top = s->heap[0];
  Event last = s->heap[--s->size];
  int i = 0;
  for (;;) {
    int c = 2 * i + 1;
    if (c >= s->size) break;
    if (c + 1 < s->size && before(&s->heap[c + 1], &s->heap[c])) c++;
    if (!before(&s->heap[c], &last)) break;
    s->heap[i] = s->heap[c];
    i = c;
  }
  if (s->size > 0) s->heap[i] = last;
  return top;
}

/* ---- packets and the rings that hold them ---- */

typedef struct {
  int seq, bytes;
  double sentAt;
} Packet;

typedef struct {
  Packet *p;
  double *t; /* arrival (a queue) or exit time (a delay line) */
  int head, count, cap;
} Ring;

static void ring_push(Ring *r, Packet p, double t) {
  if (r->count == r->cap) {
    int cap = r->cap ? r->cap * 2 : 64;
    Packet *np = malloc(cap * sizeof(Packet));
    double *nt = malloc(cap * sizeof(double));
    if (!np || !nt) die("out of memory");
    for (int k = 0; k < r->count; k++) {
      np[k] = r->p[(r->head + k) % r->cap];
      nt[k] = r->t[(r->head + k) % r->cap];
    }
    free(r->p);
    free(r->t);
    r->p = np;
    r->t = nt;
    r->head = 0;
    r->cap = cap;
  }
  int i = (r->head + r->count++) % r->cap;
  r->p[i] = p;
  r->t[i] = t;
}

static Packet ring_shift(Ring *r) {
  Packet p = r->p[r->head];
  r->head = (r->head + 1) % r->cap;
  r->count--;
  return p;
}

/* ---- the model ---- */

typedef struct {
  const Trace *trace;
  int index, finished, busy, detailed, wake_event;
  Packet transit;
  double transit_arrival, wake_at;
  int bytes_left;
  Ring queue;
} Link;

typedef struct {
  Scheduler s;
  Log log;
  Link data, acks;
  Ring data_delay, ack_delay;
  int seq, next_ack;
  double deadline, entry_at;
  int has_entry;
} Run;

static void link_receive(Run *r, Link *l, Packet p, double now);
static void sender_receive(Run *r, Packet ack, double now);

static double next_opportunity(const Link *l) { return l->finished ? INFINITY : l->trace->times[l->index]; }

static void use_opportunity(Link *l) {
  if (++l->index == l->trace->n) l->finished = 1; /* one pass of the trace */
}

static void delay_push(Run *r, Ring *d, Packet p, double exit, int event) {
  ring_push(d, p, exit);
  if (d->count == 1) schedule(&r->s, exit, event, 0);
}

static void depart(Run *r, Link *l, Packet p, double arrival, double at) {
  if (l->detailed) {
    log_push(&r->log, at, K_DEPART, p.seq, p.bytes, at - arrival, 0);
    delay_push(r, &r->data_delay, p, at + DELAY_MS, EV_DATA_DELAY);
  } else {
    sender_receive(r, p, at);
  }
}

/* Spends every opportunity up to and including `now` (mm-link's byte accounting). */
static void rationalize(Run *r, Link *l, double now) {
  while (!l->finished) {
    double at = l->trace->times[l->index];
    if (at > now) return;
    int budget = OPPORTUNITY_BYTES;
    use_opportunity(l);
    while (budget > 0) {
      if (!l->busy) {
        if (l->queue.count == 0) break;
        l->transit_arrival = l->queue.t[l->queue.head];
        l->transit = ring_shift(&l->queue);
        l->busy = 1;
        l->bytes_left = l->transit.bytes;
      }
      int sent = budget < l->bytes_left ? budget : l->bytes_left;
      l->bytes_left -= sent;
      budget -= sent;
      if (l->bytes_left == 0) {
        l->busy = 0;
        depart(r, l, l->transit, l->transit_arrival, at);
      }
    }
    if (l->queue.count == 0 && !l->busy)
      while (!l->finished && next_opportunity(l) <= now) use_opportunity(l);
  }
}

static void wake(Run *r, Link *l) {
  if (l->wake_at >= 0 || (l->queue.count == 0 && !l->busy)) return;
  double at = next_opportunity(l);
  if (at == INFINITY) return;
  l->wake_at = at;
  schedule(&r->s, at, l->wake_event, 0);
}

static void link_receive(Run *r, Link *l, Packet p, double now) {
  rationalize(r, l, floor(now));
  ring_push(&l->queue, p, now);
  if (l->detailed) log_push(&r->log, now, K_ENQUEUE, p.seq, p.bytes, l->queue.count, 0);
  wake(r, l);
}

static void send_next(Run *r, double now) {
  Packet p = {r->seq++, OPPORTUNITY_BYTES, now};
  log_push(&r->log, now, K_SEND, p.seq, p.bytes, r->seq - r->next_ack, WINDOW);
  link_receive(r, &r->data, p, now);
}

static void pump(Run *r, double now) {
  while (r->seq - r->next_ack < WINDOW) send_next(r, now);
}

/* The sender's one timer: pushing the deadline later re-arms the pending entry when it comes due. */
static void timer_arm(Run *r, double at) {
  r->entry_at = at;
  r->has_entry = 1;
  schedule(&r->s, at, EV_TIMER, at);
}

static void timer_set(Run *r, double at) {
  r->deadline = at < r->s.now ? r->s.now : at;
  if (!r->has_entry || r->deadline < r->entry_at) timer_arm(r, r->deadline);
}

static void timer_entry(Run *r, double at, double now) {
  if (!r->has_entry || at != r->entry_at) return;
  r->has_entry = 0;
  if (r->deadline <= at) {
    r->deadline = INFINITY;
    log_push(&r->log, now, K_TIMEOUT, -1, 0, TIMEOUT_MS, WINDOW);
    send_next(r, now);
    timer_set(r, now + TIMEOUT_MS);
  } else if (r->deadline != INFINITY) {
    timer_arm(r, r->deadline);
  }
}

static void sender_receive(Run *r, Packet ack, double now) {
  if (ack.seq != r->next_ack) die("an ACK out of order: this baseline has no loss detector");
  r->next_ack = ack.seq + 1;
  log_push(&r->log, now, K_ACK, ack.seq, ack.bytes, now - ack.sentAt, WINDOW);
  timer_set(r, now + TIMEOUT_MS);
  pump(r, now);
}

static void receiver_receive(Run *r, Packet p, double now) {
  log_push(&r->log, now, K_DELIVER, p.seq, p.bytes, now - p.sentAt, 0);
  p.bytes = ACK_BYTES;
  delay_push(r, &r->ack_delay, p, now + DELAY_MS, EV_ACK_DELAY);
}

static void delay_release(Run *r, Ring *d, int event, double now) {
  while (d->count > 0 && d->t[d->head] <= now) {
    Packet p = ring_shift(d);
    if (event == EV_DATA_DELAY) receiver_receive(r, p, now);
    else link_receive(r, &r->acks, p, now);
  }
  if (d->count > 0) schedule(&r->s, d->t[d->head], event, 0);
}

/* With `stream`, the run's rows go to that tally instead of a log. */
static void run_model(Run *r, const Trace *down, const Trace *up, struct Tally *stream) {
  memset(r, 0, sizeof *r);
  r->log.stream = stream;
  r->data = (Link){.trace = down, .detailed = 1, .wake_event = EV_DATA_WAKE, .wake_at = -1};
  r->acks = (Link){.trace = up, .detailed = 0, .wake_event = EV_ACK_WAKE, .wake_at = -1};
  r->deadline = INFINITY;
  /* the model's first guess at the log's size: five rows per opportunity, and some */
  if (!stream) log_alloc(&r->log, (int)ceil(DURATION_MS * ((double)down->n / down->times[down->n - 1]) * 5.2) + 4096);
  schedule(&r->s, 0, EV_BEGIN, 0);
  while (r->s.size > 0 && r->s.heap[0].t <= DURATION_MS) {
    Event e = pop(&r->s);
    r->s.now = e.t;
    switch (e.what) {
    case EV_BEGIN:
      pump(r, e.t);
      timer_set(r, e.t + TIMEOUT_MS);
      break;
    case EV_TIMER: timer_entry(r, e.arg, e.t); break;
    case EV_DATA_WAKE:
    case EV_ACK_WAKE: {
      Link *l = e.what == EV_DATA_WAKE ? &r->data : &r->acks;
      l->wake_at = -1;
      rationalize(r, l, e.t);
      wake(r, l);
      break;
    }
    case EV_DATA_DELAY: delay_release(r, &r->data_delay, EV_DATA_DELAY, e.t); break;
    case EV_ACK_DELAY: delay_release(r, &r->ack_delay, EV_ACK_DELAY, e.t); break;
    }
  }
}

static void free_run(Run *r) {
  Log *l = &r->log;
  free(l->t), free(l->kind), free(l->flow), free(l->seq), free(l->bytes), free(l->value), free(l->window);
  free(r->s.heap);
  Ring *rings[] = {&r->data.queue, &r->acks.queue, &r->data_delay, &r->ack_delay};
  for (int i = 0; i < 4; i++) free(rings[i]->p), free(rings[i]->t);
}

/* ---- the metrics, from the log ---- */

static int by_value(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* The element at floor(0.95 n) of the sorted values: by counting when they are whole numbers in a modest range. */
static double percentile(double *v, int n) {
  if (n == 0) return NAN;
  int k = (int)floor(0.95 * n);
  if (k > n - 1) k = n - 1;
  double min = INFINITY, max = -INFINITY;
  int whole = 1;
  for (int i = 0; i < n && whole; i++) {
    whole = v[i] == floor(v[i]);
    if (v[i] < min) min = v[i];
    if (v[i] > max) max = v[i];
  }
  if (!whole || max - min > 4.0 * n + 65536) {
    qsort(v, n, sizeof(double), by_value);
    return v[k];
  }
  int range = (int)(max - min) + 1;
  uint32_t *counts = calloc(range, sizeof(uint32_t));
  for (int i = 0; i < n; i++) counts[(int)(v[i] - min)]++;
  long seen = 0;
  double out = max;
  for (int i = 0; i < range; i++)
    if ((seen += counts[i]) > k) {
      out = i + min;
      break;
    }
  free(counts);
  return out;
}

typedef struct {
  double throughput, queue_delay_mean, queue_delay95, delay95, one_way95, power, score;
  int delivered, drops;
} Metrics;

typedef struct {
  double *v;
  int n, cap;
} Samples;

static void sample(Samples *s, double v) {
  if (s->n == s->cap) s->v = grown(s->v, (size_t)(s->cap = s->cap ? s->cap * 2 : 4096) * sizeof(double));
  s->v[s->n++] = v;
}

/* What the metrics need of the log, taken row by row (its buffers kept from one run to the next). */
typedef struct Tally {
  /* signal: each departing packet's departure and the first and last ms that wait for it; signal_n delays in all */
  Samples queue_delays, one_way, signal;
  double bits, sum, first_departure, last_departure, last_arrival, next_ms;
  int departs, drops, signal_n, signal_whole;
} Tally;

static void tally_reset(Tally *y) {
  y->queue_delays.n = y->one_way.n = y->signal.n = 0;
  y->bits = y->sum = 0;
  y->departs = y->drops = y->signal_n = 0;
  y->signal_whole = 1;
}

/* The percentile of the signal delays from their runs: whole delays in a modest range add one to a range of
 * a histogram each (a difference array); others are listed and go to `percentile`. */
static double signal_percentile(const Samples *runs, int n, int whole) {
  if (n == 0) return NAN;
  int packets = runs->n / 3;
  const double *r = runs->v;
  double min = INFINITY, max = -INFINITY;
  for (int i = 0; i < packets; i++) {
    if (r[3 * i] - r[3 * i + 2] < min) min = r[3 * i] - r[3 * i + 2];
    if (r[3 * i] - r[3 * i + 1] > max) max = r[3 * i] - r[3 * i + 1];
  }
  if (!whole || max - min > 4.0 * n + 65536) {
    double *listed = malloc((size_t)n * sizeof(double));
    int m = 0;
    for (int i = 0; i < packets; i++)
      for (double ms = r[3 * i + 1]; ms <= r[3 * i + 2]; ms++) listed[m++] = r[3 * i] - ms;
    double out = percentile(listed, m);
    free(listed);
    return out;
  }
  int k = (int)floor(0.95 * n);
  if (k > n - 1) k = n - 1;
  int range = (int)(max - min) + 2;
  int32_t *steps = calloc(range, sizeof(int32_t));
  for (int i = 0; i < packets; i++) {
    steps[(int)(r[3 * i] - r[3 * i + 2] - min)]++;
    steps[(int)(r[3 * i] - r[3 * i + 1] - min) + 1]--;
  }
  long count = 0, seen = 0;
  double out = max;
  for (int v = 0; v < range; v++)
    if ((seen += (count += steps[v])) > k) {
      out = v + min;
      break;
    }
  free(steps);
  return out;
}

/* value as the log stores it (a float). Signal delay: each ms from the first arrival to the last, the
 * departure of the first packet arriving then or later, minus the ms (the FIFO link departs in arrival order);
 * kept as each packet's run of them. */
static void tally_row(struct Tally *y, double t, int kind, int bytes, float value) {
  if (kind == K_DEPART) {
    double q = value, arrival = t - q;
    if (y->departs == 0) y->first_departure = t, y->next_ms = floor(arrival);
    else if (arrival < y->last_arrival || (arrival == y->last_arrival && t < y->last_departure))
      die("arrivals out of order: this baseline has only a FIFO link");
    if (y->next_ms <= arrival) {
      /* the ms from next_ms to the arrival's wait for this departure: delays t − ms */
      double last = floor(arrival);
      sample(&y->signal, t);
      sample(&y->signal, y->next_ms);
      sample(&y->signal, last);
      y->signal_n += (int)(last - y->next_ms) + 1;
      y->signal_whole &= t == floor(t);
      y->next_ms = last + 1;
    }
    sample(&y->queue_delays, q);
    y->sum += q;
    y->bits += bytes * 8.0;
    y->departs++;
    y->last_arrival = arrival;
    y->last_departure = t;
  } else if (kind == K_DELIVER) {
    sample(&y->one_way, value);
  } else if (kind == K_DROP) {
    y->drops++;
  }
}

static Metrics tally_metrics(Tally *y) {
  Metrics m = {0};
  int n = y->departs;
  double span = n > 1 ? y->last_departure - y->first_departure : 0;
  m.throughput = span > 0 ? y->bits / span / 1000 : 0;
  m.delivered = n;
  m.drops = y->drops;
  m.queue_delay_mean = n > 0 ? y->sum / n : NAN;
  m.delay95 = signal_percentile(&y->signal, y->signal_n, y->signal_whole);
  m.queue_delay95 = percentile(y->queue_delays.v, y->queue_delays.n);
  m.one_way95 = percentile(y->one_way.v, y->one_way.n);
  m.power = m.throughput / (m.delay95 / 1000);
  m.score = log(m.throughput / m.delay95);
  return m;
}

/* The metrics from a stored log: its rows through the same tally, after the run. */
static Metrics link_metrics(const Log *l, Tally *y) {
  tally_reset(y);
  for (int i = 0; i < l->n; i++) tally_row(y, l->t[i], l->kind[i], l->bytes[i], l->value[i]);
  return tally_metrics(y);
}

/* The trace's ideal corner: every opportunity used, the only delay the wait for the next one. */
static void omniscient(const Trace *tr, double *throughput, double *delay95) {
  double *delays = malloc((size_t)DURATION_MS * sizeof(double));
  int n = 0, k = 0;
  for (int t = 0; t < DURATION_MS; t++) {
    while (k < tr->n && tr->times[k] < t) k++;
    if (k >= tr->n) break;
    delays[n++] = tr->times[k] - t;
  }
  int used = 0;
  double previous = 0;
  while (used < tr->n && tr->times[used] <= DURATION_MS) previous = tr->times[used++];
  double span = fmin(DURATION_MS, used > 0 ? previous : tr->times[0]);
  *throughput = span > 0 ? used * (double)OPPORTUNITY_BYTES * 8 / span / 1000 : 0;
  *delay95 = percentile(delays, n);
  free(delays);
}

/* FNV-1a over the log's columns, column after column, so the TypeScript run's log can be compared byte for byte. */
static uint32_t fnv(uint32_t h, const void *p, size_t n) {
  const uint8_t *b = p;
  for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * 16777619u;
  return h;
}

static uint32_t log_digest(const Log *l) {
  uint32_t h = 2166136261u;
  h = fnv(h, l->t, l->n * sizeof(double));
  h = fnv(h, l->kind, l->n);
  h = fnv(h, l->flow, l->n);
  h = fnv(h, l->seq, l->n * sizeof(int32_t));
  h = fnv(h, l->bytes, l->n * sizeof(int32_t));
  h = fnv(h, l->value, l->n * sizeof(float));
  return fnv(h, l->window, l->n * sizeof(float));
}

static double ms_since(const struct timespec *t0) {
  struct timespec t1;
  clock_gettime(CLOCK_MONOTONIC, &t1);
  return (t1.tv_sec - t0->tv_sec) * 1e3 + (t1.tv_nsec - t0->tv_nsec) / 1e6;
}

int main(int argc, char **argv) {
  if (argc < 3) die("usage: contest <down trace> <up trace> [runs]");
  Trace down = read_trace(argv[1]), up = read_trace(argv[2]);
  int runs = argc > 3 ? atoi(argv[3]) : 41;
  if (runs < 1) die("runs must be at least 1");
  int stream = argc > 4 && strcmp(argv[4], "stream") == 0;
  /* the model keeps a trace's omniscient point once computed: so does this */
  double omni_throughput, omni_delay95;
  omniscient(&down, &omni_throughput, &omni_delay95);
  double *times = malloc(runs * sizeof(double));
  Run *r = calloc(1, sizeof(Run));
  Tally *tally = calloc(1, sizeof(Tally));
  Metrics m;
  for (int i = -3; i < runs; i++) {
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    if (stream) {
      tally_reset(tally);
      run_model(r, &down, &up, tally);
      m = tally_metrics(tally);
    } else {
      run_model(r, &down, &up, NULL);
      m = link_metrics(&r->log, tally);
    }
    if (i >= 0) times[i] = ms_since(&t0);
    if (i < runs - 1) free_run(r);
  }
  printf("events %d\n", r->log.n);
  printf("endMs %.17g\n", r->s.now > DURATION_MS ? r->s.now : DURATION_MS);
  if (!stream) printf("logDigest %u\n", log_digest(&r->log));
  printf("packetsDelivered %d\n", m.delivered);
  printf("throughputMbps %.17g\n", m.throughput);
  printf("queueDelayMean %.17g\n", m.queue_delay_mean);
  printf("queueDelay95 %.17g\n", m.queue_delay95);
  printf("delay95 %.17g\n", m.delay95);
  printf("oneWay95 %.17g\n", m.one_way95);
  printf("power %.17g\n", m.power);
  printf("score %.17g\n", m.score);
  printf("drops %d\n", m.drops);
  printf("omniscientThroughputMbps %.17g\n", omni_throughput);
  printf("omniscientDelay95 %.17g\n", omni_delay95);
  qsort(times, runs, sizeof(double), by_value);
  printf("fastestMs %.3f\n", times[0]);
  printf("medianMs %.3f\n", times[runs / 2]);
  return 0;
}
