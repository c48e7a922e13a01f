#include <sqlite3.h>

/// Turns off SQLite's memory statistics, which take a process-wide mutex around every allocation
/// (about 6 % of a batched insert). Nothing here reads them. `sqlite3_config` is variadic, which
/// Swift cannot call, hence this wrapper; it only works before SQLite initialises, and returns
/// SQLITE_MISUSE (harmlessly) after.
static inline int ctv_sqlite_disable_memory_statistics(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}
