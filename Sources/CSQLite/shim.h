// SQLite 3 as Swift sees it. SQLITE_TRANSIENT is a macro casting -1 to a function pointer, which Swift cannot
// import; the wrappers below bind with it (SQLite copies the bytes before the call returns).
#ifndef CSQLITE_SHIM_H
#define CSQLITE_SHIM_H
#include <sqlite3.h>

static inline int CSQLite_bind_text(sqlite3_stmt *statement, int index, const char *text, int length) {
    return sqlite3_bind_text(statement, index, text, length, SQLITE_TRANSIENT);
}

static inline int CSQLite_bind_blob(sqlite3_stmt *statement, int index, const void *bytes, int length) {
    return sqlite3_bind_blob(statement, index, bytes, length, SQLITE_TRANSIENT);
}
/// sqlite3_db_config is variadic, which Swift cannot call: lookaside memory off for one connection (the
/// history writes rows once and keeps no hot statements, so its per-connection arena is memory for nothing).
static inline int CSQLite_disable_lookaside(sqlite3 *db) {
    return sqlite3_db_config(db, SQLITE_DBCONFIG_LOOKASIDE, (void *)0, 0, 0);
}
/// The last connection to close leaves the WAL as it is instead of copying it into the database and removing
/// it: that checkpoint, and making the WAL anew on the next open, cost four fsyncs on every send; the history
/// copies the WAL in and cuts it once it outgrows 100 pages (`HistoryStore.logPages`).
static inline int CSQLite_keep_wal_on_close(sqlite3 *db) {
    return sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, (int *)0);
}
#endif
