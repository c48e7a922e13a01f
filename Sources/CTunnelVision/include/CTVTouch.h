#ifndef CTV_TOUCH_H
#define CTV_TOUCH_H

#include <stddef.h>

/// Reads one byte of every 64-byte cache line of `[start, start + length)`, so that the lines —
/// and the pages under them, mapped on first touch — are loaded together, many misses at once,
/// rather than one dependent miss at a time later. Volatile, so no compiler drops the reads.
static inline void ctv_touch_lines(const void *start, size_t length) {
    const volatile unsigned char *line = (const volatile unsigned char *)start;
    const volatile unsigned char *end = line + length;
    for (; line < end; line += 64) (void)*line;
}

#endif
