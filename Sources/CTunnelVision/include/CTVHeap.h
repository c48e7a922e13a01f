#ifndef CTV_HEAP_H
#define CTV_HEAP_H

/// Keeps the heap at the size it grew to (trim above 64 MiB, grow by 16 MiB, mmap only blocks of
/// 4 MiB and more), instead of glibc's 128 KiB thresholds.
void ctv_keep_heap_growth(void);

/// Every thread allocates from the one main arena (mallopt(M_ARENA_MAX, 1)); call before any
/// thread but the main one allocates.
void ctv_use_one_heap_arena(void);

/// Returns the heap's free pages to the system (malloc_trim(0)): what a burst left behind.
void ctv_give_heap_back(void);

#endif
