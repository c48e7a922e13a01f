#ifndef CALLOCATIONCOUNTER_H
#define CALLOCATIONCOUNTER_H

#include <stdint.h>

// Interposes glibc's allocation entry points in the executable that links this target and counts
// every call, so a benchmark can report allocations per packet. Only the bench links it.

/// Number of allocation calls (malloc, calloc, realloc, posix_memalign, aligned_alloc, memalign)
/// made by any thread since the process started.
uint64_t cac_allocation_count(void);

#endif
