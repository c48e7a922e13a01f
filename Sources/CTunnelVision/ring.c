#include "CTVRing.h"
#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <stdatomic.h>
#include <stddef.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

_Static_assert(sizeof(_Atomic uint64_t) == 8 && sizeof(_Atomic uint32_t) == 4, "atomics are plain-sized");
_Static_assert(CTV_RING_OFFSET_SLEEPERS + 4 <= CTV_RING_HEADER_SIZE, "the header fits its 64 bytes");

#define FIELD(header, offset, type) ((type *)((char *)(header) + (offset)))
#define U64(header, offset) FIELD(header, offset, _Atomic uint64_t)
#define U32(header, offset) FIELD(header, offset, _Atomic uint32_t)

uint64_t ctv_ring_load_head_acquire(const void *header) {
    return atomic_load_explicit(U64(header, CTV_RING_OFFSET_HEAD), memory_order_acquire);
}

void ctv_ring_store_head_release(void *header, uint64_t value) {
    atomic_store_explicit(U64(header, CTV_RING_OFFSET_HEAD), value, memory_order_release);
}

uint64_t ctv_ring_load_tail_acquire(const void *header) {
    return atomic_load_explicit(U64(header, CTV_RING_OFFSET_TAIL), memory_order_acquire);
}

void ctv_ring_store_tail_release(void *header, uint64_t value) {
    atomic_store_explicit(U64(header, CTV_RING_OFFSET_TAIL), value, memory_order_release);
}

// `dropped` orders nothing else: it is a counter, read for display.
uint64_t ctv_ring_load_dropped(const void *header) {
    return atomic_load_explicit(U64(header, CTV_RING_OFFSET_DROPPED), memory_order_relaxed);
}

void ctv_ring_add_dropped(void *header, uint64_t count) {
    atomic_fetch_add_explicit(U64(header, CTV_RING_OFFSET_DROPPED), count, memory_order_relaxed);
}

uint64_t ctv_ring_load_generation(const void *header) {
    return atomic_load_explicit(U64(header, CTV_RING_OFFSET_GENERATION), memory_order_acquire);
}

void ctv_ring_store_generation(void *header, uint64_t value) {
    atomic_store_explicit(U64(header, CTV_RING_OFFSET_GENERATION), value, memory_order_release);
}

uint32_t ctv_ring_load_state_acquire(const void *header) {
    return atomic_load_explicit(U32(header, CTV_RING_OFFSET_STATE), memory_order_acquire);
}

void ctv_ring_store_state_release(void *header, uint32_t value) {
    atomic_store_explicit(U32(header, CTV_RING_OFFSET_STATE), value, memory_order_release);
}

uint32_t ctv_ring_wake_sequence(const void *header) {
    return atomic_load_explicit(U32(header, CTV_RING_OFFSET_WAKE_SEQUENCE), memory_order_seq_cst);
}

// The producer publishes (head, release) before notifying; the consumer announces itself in
// `sleepers` before re-checking head. Both sides use seq_cst there, so at least one of them
// sees the other: either the producer sees a sleeper and wakes it, or the consumer sees the new
// head and does not sleep. The futex word's expected value covers a wakeup between the
// consumer's first look and its sleep.
void ctv_ring_notify(void *header) {
    _Atomic uint32_t *sequence = U32(header, CTV_RING_OFFSET_WAKE_SEQUENCE);
    atomic_fetch_add_explicit(sequence, 1, memory_order_seq_cst);
    if (atomic_load_explicit(U32(header, CTV_RING_OFFSET_SLEEPERS), memory_order_seq_cst) != 0) {
        // Not FUTEX_PRIVATE: the word is shared between processes.
        syscall(SYS_futex, (uint32_t *)sequence, FUTEX_WAKE, INT_MAX, NULL, NULL, 0);
    }
}

int ctv_ring_wait(void *header, uint32_t observed_sequence, int64_t timeout_ns) {
    _Atomic uint32_t *sleepers = U32(header, CTV_RING_OFFSET_SLEEPERS);
    atomic_fetch_add_explicit(sleepers, 1, memory_order_seq_cst);
    int result = 0;
    uint64_t head = atomic_load_explicit(U64(header, CTV_RING_OFFSET_HEAD), memory_order_seq_cst);
    uint64_t tail = atomic_load_explicit(U64(header, CTV_RING_OFFSET_TAIL), memory_order_seq_cst);
    uint32_t state = atomic_load_explicit(U32(header, CTV_RING_OFFSET_STATE), memory_order_seq_cst);
    if (head == tail && state != 2) {
        struct timespec timeout = {
            .tv_sec = timeout_ns / 1000000000,
            .tv_nsec = timeout_ns % 1000000000,
        };
        long rc = syscall(SYS_futex, (uint32_t *)U32(header, CTV_RING_OFFSET_WAKE_SEQUENCE), FUTEX_WAIT,
                          observed_sequence, timeout_ns < 0 ? NULL : &timeout, NULL, 0);
        if (rc != 0 && errno != EAGAIN && errno != EINTR) result = errno;
    }
    atomic_fetch_sub_explicit(sleepers, 1, memory_order_seq_cst);
    return result;
}

int ctv_ring_wait_for_notify(void *header, uint32_t observed_sequence, int64_t timeout_ns) {
    _Atomic uint32_t *sleepers = U32(header, CTV_RING_OFFSET_SLEEPERS);
    atomic_fetch_add_explicit(sleepers, 1, memory_order_seq_cst);
    struct timespec timeout = {
        .tv_sec = timeout_ns / 1000000000,
        .tv_nsec = timeout_ns % 1000000000,
    };
    int result = 0;
    // FUTEX_WAIT compares the word with `observed_sequence` atomically: a notify posted since the
    // caller read it returns at once (EAGAIN).
    long rc = syscall(SYS_futex, (uint32_t *)U32(header, CTV_RING_OFFSET_WAKE_SEQUENCE), FUTEX_WAIT,
                      observed_sequence, timeout_ns < 0 ? NULL : &timeout, NULL, 0);
    if (rc != 0 && errno != EAGAIN && errno != EINTR) result = errno;
    atomic_fetch_sub_explicit(sleepers, 1, memory_order_seq_cst);
    return result;
}
