/* A tiny HAL behind the tile ABI (microkernels/README.md), as a hardware team
 * would write one: a plain triple loop, counters updated atomically (tiles of
 * parallel loops may call it at once), and a refusal of any tile whose
 * reduction is longer than 64, to show how a device says no. Built into a
 * shared library by build.rs for tests/accelerate.rs. */
#include <stdint.h>

typedef struct {
  uint64_t tiles, macs, bytes_in, bytes_out, cycles, refused;
} sched_counters;

int32_t tiny_tile_f32(void *context, int64_t m, int64_t n, int64_t k,
                      const float *a, int64_t lda, const float *b, int64_t ldb,
                      float *c, int64_t ldc, int32_t accumulate) {
  sched_counters *counters = (sched_counters *)context;
  if (!context || !a || !b || !c || m < 0 || n < 0 || k < 0) return 2;
  if (k > 64) {
    __atomic_fetch_add(&counters->refused, 1, __ATOMIC_RELAXED);
    return 1;
  }
  for (int64_t i = 0; i < m; i++) {
    for (int64_t j = 0; j < n; j++) {
      float sum = accumulate ? c[i * ldc + j] : 0.0f;
      for (int64_t p = 0; p < k; p++) sum += a[i * lda + p] * b[p * ldb + j];
      c[i * ldc + j] = sum;
    }
  }
  __atomic_fetch_add(&counters->tiles, 1, __ATOMIC_RELAXED);
  __atomic_fetch_add(&counters->macs, (uint64_t)(m * n * k), __ATOMIC_RELAXED);
  return 0;
}

/* A HAL with a bug: it writes through a null pointer (tests/accelerate.rs
 * checks the process names the target before it dies of the signal). */
int32_t tiny_crashing_tile_f32(void *context, int64_t m, int64_t n, int64_t k,
                               const float *a, int64_t lda, const float *b,
                               int64_t ldb, float *c, int64_t ldc,
                               int32_t accumulate) {
  (void)context, (void)m, (void)n, (void)k, (void)a, (void)lda, (void)b;
  (void)ldb, (void)ldc, (void)accumulate;
  volatile float *nowhere = 0;
  *nowhere = c[0];
  return 0;
}
