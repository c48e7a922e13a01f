#include <malloc.h>
#include "CTVHeap.h"

// mallopt's parameters are macros, which Swift does not import.
void ctv_keep_heap_growth(void) {
    mallopt(M_TRIM_THRESHOLD, 64 << 20);
    mallopt(M_TOP_PAD, 16 << 20);
    mallopt(M_MMAP_THRESHOLD, 4 << 20);
}

void ctv_use_one_heap_arena(void) { mallopt(M_ARENA_MAX, 1); }

void ctv_give_heap_back(void) { malloc_trim(0); }
