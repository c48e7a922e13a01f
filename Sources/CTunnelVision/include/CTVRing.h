#ifndef CTV_RING_H
#define CTV_RING_H

#include <stdint.h>

// The live feed's shared header (ipc spec): 64 bytes at the start of the ring file, mapped
// MAP_SHARED by one producer process and one consumer process. Cross-process atomics must sit
// in the mapping itself, so Swift reaches them only through these functions, each with the
// memory order the spec names. The functions are out of line (ring.c) so ThreadSanitizer sees
// the atomics it instruments.
//
//   @0  magic        u32   0x54565231 "TVR1"
//   @4  version      u32   1
//   @8  slotSize     u32
//   @12 slotCount    u32   power of two
//   @16 head         atomic u64   producer's next write index (release)
//   @24 tail         atomic u64   consumer's next read index (release)
//   @32 dropped      atomic u64   records refused because the ring was full
//   @40 generation   atomic u64   the session this file belongs to (previous + 1)
//   @48 state        atomic u32   0 live, 1 closed by its producer, 2 superseded by a newer file
//   @52 wakeSequence atomic u32   futex word: bumped by every wakeup
//   @56 sleepers     atomic u32   consumers blocked in ctv_ring_wait
//   @60 reserved     u32   0

enum {
    CTV_RING_HEADER_SIZE = 64,
    CTV_RING_OFFSET_MAGIC = 0,
    CTV_RING_OFFSET_VERSION = 4,
    CTV_RING_OFFSET_SLOT_SIZE = 8,
    CTV_RING_OFFSET_SLOT_COUNT = 12,
    CTV_RING_OFFSET_HEAD = 16,
    CTV_RING_OFFSET_TAIL = 24,
    CTV_RING_OFFSET_DROPPED = 32,
    CTV_RING_OFFSET_GENERATION = 40,
    CTV_RING_OFFSET_STATE = 48,
    CTV_RING_OFFSET_WAKE_SEQUENCE = 52,
    CTV_RING_OFFSET_SLEEPERS = 56,
};

uint64_t ctv_ring_load_head_acquire(const void *header);
void ctv_ring_store_head_release(void *header, uint64_t value);
uint64_t ctv_ring_load_tail_acquire(const void *header);
void ctv_ring_store_tail_release(void *header, uint64_t value);
uint64_t ctv_ring_load_dropped(const void *header);
void ctv_ring_add_dropped(void *header, uint64_t count);
uint64_t ctv_ring_load_generation(const void *header);
void ctv_ring_store_generation(void *header, uint64_t value);
uint32_t ctv_ring_load_state_acquire(const void *header);
void ctv_ring_store_state_release(void *header, uint32_t value);

/// The wakeup word as it is now; pass it to `ctv_ring_wait` so a wakeup posted in between is not
/// missed.
uint32_t ctv_ring_wake_sequence(const void *header);

/// Posts a payload-less wakeup: bumps the sequence, and makes a futex syscall only when a
/// consumer is actually asleep — so a producer that notifies after every batch pays one atomic
/// add while nobody waits (the coalescing the design asks for).
void ctv_ring_notify(void *header);

/// Takes the ring's one-reader claim on `descriptor` (the ring's lock file, opened for writing):
/// 0 when taken, EAGAIN or EACCES when another open file holds it, another errno on failure.
int ctv_ring_claim_reader(int descriptor);

/// Blocks until a wakeup is posted after `observed_sequence`, records are waiting
/// (head != tail), the file is superseded by a newer session's, or `timeout_ns` passes.
/// Returns 0 when woken or when there was no need to sleep, ETIMEDOUT on timeout, or another
/// errno from futex(2).
int ctv_ring_wait(void *header, uint32_t observed_sequence, int64_t timeout_ns);

/// Blocks until a wakeup is posted after `observed_sequence` or `timeout_ns` passes — whether
/// records are waiting is not looked at. For a watcher that is not the consumer (the live feed's
/// wakeup): it must sleep while unread records wait for the consumer, not spin on them.
/// Returns 0 when woken (or the word had already moved), ETIMEDOUT on timeout, or another errno.
int ctv_ring_wait_for_notify(void *header, uint32_t observed_sequence, int64_t timeout_ns);

#endif
