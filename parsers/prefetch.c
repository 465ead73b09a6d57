/* Parallel inflation ahead of the tree parse (prefetch.h). */
#include "prefetch.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "arena.h"
#include "env.h"
#include "file.h"

struct job {
	enum fw_algo algo;
	const uint8_t *in;
	size_t len;
	bool done, ok, taken;
	uint8_t *out;
	size_t out_len;
	struct fw_inflate_info info;
	struct fw_error err;
};

struct fw_prefetch {
	struct job *jobs;
	size_t n, cap;
	bool sorted;
	/* while running */
	pthread_mutex_t lock;
	size_t next;
	uint64_t kept, cap_one, cap_total;
	char reading[512]; /* what the thread that started the pool is reading */
};

struct fw_prefetch *fw_prefetch_new(void)
{
	struct fw_prefetch *pf = fw_xcalloc(1, sizeof(*pf));
	pthread_mutex_init(&pf->lock, NULL);
	return pf;
}

void fw_prefetch_free(struct fw_prefetch *pf)
{
	if (!pf)
		return;
	for (size_t i = 0; i < pf->n; i++)
		if (!pf->jobs[i].taken)
			free(pf->jobs[i].out);
	free(pf->jobs);
	pthread_mutex_destroy(&pf->lock);
	free(pf);
}

static unsigned shared_by = 1;

void fw_prefetch_share(unsigned inputs)
{
	__atomic_store_n(&shared_by, inputs ? inputs : 1, __ATOMIC_RELAXED);
}

unsigned fw_prefetch_threads(size_t n)
{
	const char *env = fw_env()->threads;
	long want = env ? strtol(env, NULL, 10) : sysconf(_SC_NPROCESSORS_ONLN);
	want /= (long)__atomic_load_n(&shared_by, __ATOMIC_RELAXED);
	if (want < 1 || n < FW_PREFETCH_MIN_INPUT)
		return 1;
	return want > 8 ? 8 : (unsigned)want;
}

void fw_prefetch_add(struct fw_prefetch *pf, enum fw_algo a, const uint8_t *in, size_t len)
{
	if (len < FW_PREFETCH_MIN_STREAM)
		return;
	if (pf->n == pf->cap) {
		pf->cap = pf->cap ? pf->cap * 2 : 16;
		pf->jobs = fw_xrealloc(pf->jobs, pf->cap * sizeof(*pf->jobs));
	}
	pf->jobs[pf->n++] = (struct job){.algo = a, .in = in, .len = len};
	pf->sorted = false;
}

/* Largest streams first, so the long ones start at once. */
static int by_size_desc(const void *a, const void *b)
{
	const struct job *x = a, *y = b;
	return x->len > y->len ? -1 : x->len < y->len ? 1 : 0;
}

static int by_stream(const void *a, const void *b)
{
	const struct job *x = a, *y = b;
	if (x->in != y->in)
		return x->in < y->in ? -1 : 1;
	if (x->len != y->len)
		return x->len < y->len ? -1 : 1;
	return (int)x->algo - (int)y->algo;
}

static void *worker(void *arg)
{
	struct fw_prefetch *pf = arg;
	fw_file_note_reading(pf->reading); /* named when memory runs out while inflating */
	for (;;) {
		pthread_mutex_lock(&pf->lock);
		size_t i = pf->next++;
		pthread_mutex_unlock(&pf->lock);
		if (i >= pf->n)
			return NULL;
		struct job *j = &pf->jobs[i];
		fw_error_clear(&j->err);
		j->ok = fw_decompress(j->algo, j->in, j->len, pf->cap_one, &j->out, &j->out_len, &j->info, &j->err);
		/* a failure is kept too (the parse reports it); a success only within the total */
		pthread_mutex_lock(&pf->lock);
		bool keep = !j->ok || pf->kept + j->out_len <= pf->cap_total;
		if (keep && j->ok)
			pf->kept += j->out_len;
		pthread_mutex_unlock(&pf->lock);
		if (!keep) {
			free(j->out);
			j->out = NULL;
		}
		j->done = keep;
	}
}

void fw_prefetch_run(struct fw_prefetch *pf, unsigned threads, uint64_t cap_one, uint64_t cap_total)
{
	if (!pf->n)
		return;
	/* one job per stream (a stream seen twice would be inflated once and taken once) */
	qsort(pf->jobs, pf->n, sizeof(*pf->jobs), by_stream);
	size_t k = 0;
	for (size_t i = 0; i < pf->n; i++)
		if (!k || by_stream(&pf->jobs[i], &pf->jobs[k - 1]) != 0)
			pf->jobs[k++] = pf->jobs[i];
	pf->n = k;
	qsort(pf->jobs, pf->n, sizeof(*pf->jobs), by_size_desc);
	if (pf->n > FW_PREFETCH_MAX_JOBS)
		pf->n = FW_PREFETCH_MAX_JOBS;
	snprintf(pf->reading, sizeof(pf->reading), "%s", fw_file_reading());
	pf->cap_one = cap_one;
	pf->cap_total = cap_total;
	pf->next = 0;
	pf->kept = 0;
	if (threads > pf->n)
		threads = (unsigned)pf->n;
	pthread_t tid[8];
	unsigned started = 0;
	for (unsigned i = 1; i < threads && i < 8; i++)
		if (pthread_create(&tid[started], NULL, worker, pf) == 0)
			started++;
	worker(pf); /* this thread works too */
	for (unsigned i = 0; i < started; i++)
		pthread_join(tid[i], NULL);
	qsort(pf->jobs, pf->n, sizeof(*pf->jobs), by_stream);
	pf->sorted = true;
}

bool fw_prefetch_take(struct fw_prefetch *pf, enum fw_algo a, const uint8_t *in, size_t len, bool *ok, uint8_t **out,
		      size_t *out_len, struct fw_inflate_info *info, struct fw_error *err)
{
	if (!pf || !pf->sorted || len < FW_PREFETCH_MIN_STREAM)
		return false;
	struct job key = {.algo = a, .in = in, .len = len};
	struct job *j = bsearch(&key, pf->jobs, pf->n, sizeof(*pf->jobs), by_stream);
	if (!j || !j->done || j->taken)
		return false;
	j->taken = true;
	*ok = j->ok;
	if (j->ok) {
		*out = j->out;
		*out_len = j->out_len;
		if (info)
			*info = j->info;
	} else if (err) {
		*err = j->err;
	}
	return true;
}
