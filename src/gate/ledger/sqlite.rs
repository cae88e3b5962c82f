//! The embedded ledger: one SQLite file (bundled SQLite, WAL), safe for many threads and
//! many processes on one machine.

use std::path::Path;
use std::sync::Mutex;
use std::time::Duration;

use rusqlite::types::{Value as SqlValue, ValueRef};
use rusqlite::{Connection, params_from_iter};

use super::{Backend, Sql, SqlLedger, TABLES, Tx};
use crate::error::{Error, Result};

const AUDIT: &str = "
CREATE TABLE IF NOT EXISTS audit (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    at BIGINT NOT NULL,
    call_id TEXT NOT NULL,
    run_id TEXT NOT NULL,
    event TEXT NOT NULL,
    actor TEXT NOT NULL,
    detail TEXT NOT NULL
);
CREATE TRIGGER IF NOT EXISTS audit_no_update BEFORE UPDATE ON audit
BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END;
CREATE TRIGGER IF NOT EXISTS audit_no_delete BEFORE DELETE ON audit
BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END;
";

fn fail(operation: &'static str, e: impl std::fmt::Display) -> Error {
    Error::Ledger {
        backend: "sqlite",
        operation,
        reason: e.to_string(),
    }
}

/// `$1` placeholders (shared with PostgreSQL) as SQLite's `?1`.
fn placeholders(sql: &str) -> String {
    sql.replace('$', "?")
}

pub(crate) struct Sqlite {
    conn: Mutex<Connection>,
}

struct SqliteTx<'a>(&'a Connection);

impl Tx for SqliteTx<'_> {
    fn exec(&mut self, sql: &str, params: &[Sql]) -> Result<u64> {
        let n = self
            .0
            .prepare_cached(&placeholders(sql))
            .and_then(|mut s| s.execute(params_from_iter(params.iter().map(to_sqlite))))
            .map_err(|e| fail("write", e))?;
        Ok(n as u64)
    }

    fn query(&mut self, sql: &str, params: &[Sql]) -> Result<Vec<Vec<Sql>>> {
        let mut stmt = self
            .0
            .prepare_cached(&placeholders(sql))
            .map_err(|e| fail("read", e))?;
        let n = stmt.column_count();
        let rows = stmt
            .query_map(params_from_iter(params.iter().map(to_sqlite)), |row| {
                (0..n)
                    .map(|i| {
                        Ok(match row.get_ref(i)? {
                            ValueRef::Integer(v) => Sql::Int(v),
                            ValueRef::Text(t) => Sql::Text(String::from_utf8_lossy(t).into_owned()),
                            _ => Sql::Null,
                        })
                    })
                    .collect::<rusqlite::Result<Vec<Sql>>>()
            })
            .map_err(|e| fail("read", e))?;
        rows.collect::<rusqlite::Result<Vec<_>>>()
            .map_err(|e| fail("read", e))
    }
}

fn to_sqlite(v: &Sql) -> SqlValue {
    match v {
        Sql::Null => SqlValue::Null,
        Sql::Int(i) => SqlValue::Integer(*i),
        Sql::Text(t) => SqlValue::Text(t.clone()),
    }
}

impl Sqlite {
    fn run<T>(&self, begin: &str, f: &mut dyn FnMut(&mut dyn Tx) -> Result<T>) -> Result<T> {
        let conn = self
            .conn
            .lock()
            .map_err(|_| fail("lock", "a thread panicked while holding the connection"))?;
        conn.execute_batch(begin).map_err(|e| fail("begin", e))?;
        match f(&mut SqliteTx(&conn)) {
            Ok(v) => {
                conn.execute_batch("COMMIT")
                    .map_err(|e| fail("commit", e))?;
                Ok(v)
            }
            Err(e) => {
                let _ = conn.execute_batch("ROLLBACK");
                Err(e)
            }
        }
    }
}

impl Backend for Sqlite {
    const NAME: &'static str = "sqlite";

    fn transaction<T>(
        &self,
        _lock: Option<&str>,
        f: &mut dyn FnMut(&mut dyn Tx) -> Result<T>,
    ) -> Result<T> {
        // IMMEDIATE takes SQLite's one write lock up front, so the key lookup, the hourly
        // count and the insert see one state across every process on the file.
        self.run("BEGIN IMMEDIATE", f)
    }

    fn read<T>(&self, f: &mut dyn FnMut(&mut dyn Tx) -> Result<T>) -> Result<T> {
        // A deferred transaction reads a WAL snapshot beside the writer.
        self.run("BEGIN", f)
    }
}

/// The SQLite ledger.
///
/// ```
/// # fn main() -> palisade::Result<()> {
/// let dir = std::env::temp_dir().join(format!("palisade-doc-{}", std::process::id()));
/// std::fs::create_dir_all(&dir).ok();
/// let ledger = palisade::SqliteLedger::open(dir.join("gate.db"))?;
/// use palisade::Ledger;
/// assert_eq!(ledger.backend(), "sqlite");
/// # Ok(()) }
/// ```
pub struct SqliteLedger(SqlLedger<Sqlite>);

impl std::fmt::Debug for SqliteLedger {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SqliteLedger")
    }
}

impl SqliteLedger {
    /// Opens (creating when needed) a ledger file in WAL mode. Writers from other threads
    /// and processes wait up to 30 s for the write lock.
    ///
    /// ```
    /// # fn main() -> palisade::Result<()> {
    /// let ledger = palisade::SqliteLedger::open(":memory:")?;
    /// # Ok(()) }
    /// ```
    pub fn open(path: impl AsRef<Path>) -> Result<Self> {
        let conn = Connection::open(path.as_ref()).map_err(|e| fail("open", e))?;
        conn.busy_timeout(Duration::from_secs(30))
            .map_err(|e| fail("open", e))?;
        // WAL lets readers run beside the one writer; NORMAL sync loses no committed
        // transaction when a process dies (only on power loss, the last few).
        conn.query_row("PRAGMA journal_mode = WAL", [], |_| Ok(()))
            .map_err(|e| fail("open", e))?;
        conn.execute_batch("PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON;")
            .map_err(|e| fail("open", e))?;
        conn.execute_batch(&format!("BEGIN IMMEDIATE; {TABLES} {AUDIT} COMMIT;"))
            .map_err(|e| fail("create tables", e))?;
        Ok(SqliteLedger(SqlLedger {
            db: Sqlite {
                conn: Mutex::new(conn),
            },
        }))
    }
}

super::forward_ledger!(SqliteLedger);
