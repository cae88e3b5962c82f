//! The shared ledger: PostgreSQL, for many workers on many machines.

use std::sync::Mutex;

use postgres::types::{ToSql, Type};
use postgres::{Client, NoTls};

use super::{Backend, Sql, SqlLedger, TABLES, Tx};
use crate::error::{Error, Result};

const AUDIT: &str = "
CREATE TABLE IF NOT EXISTS audit (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    at BIGINT NOT NULL,
    call_id TEXT NOT NULL,
    run_id TEXT NOT NULL,
    event TEXT NOT NULL,
    actor TEXT NOT NULL,
    detail TEXT NOT NULL
);
CREATE OR REPLACE FUNCTION palisade_audit_append_only() RETURNS trigger LANGUAGE plpgsql AS
$$ BEGIN RAISE EXCEPTION 'the audit log is append-only'; END $$;
CREATE OR REPLACE TRIGGER audit_append_only BEFORE UPDATE OR DELETE ON audit
FOR EACH ROW EXECUTE FUNCTION palisade_audit_append_only();
";

/// Serialises schema creation between processes that connect at once.
const SCHEMA_LOCK: i64 = 0x7061_6c69_7361_6465;

fn fail(operation: &'static str, e: impl std::fmt::Display) -> Error {
    Error::Ledger {
        backend: "postgres",
        operation,
        reason: e.to_string(),
    }
}

pub(crate) struct Postgres {
    client: Mutex<Client>,
}

struct PgTx<'a, 'b>(&'a mut postgres::Transaction<'b>);

fn bind(params: &[Sql]) -> Vec<Box<dyn ToSql + Sync>> {
    params
        .iter()
        .map(|p| -> Box<dyn ToSql + Sync> {
            match p {
                Sql::Null => Box::new(None::<String>),
                Sql::Int(i) => Box::new(*i),
                Sql::Text(t) => Box::new(t.clone()),
            }
        })
        .collect()
}

impl Tx for PgTx<'_, '_> {
    fn exec(&mut self, sql: &str, params: &[Sql]) -> Result<u64> {
        let owned = bind(params);
        let refs: Vec<&(dyn ToSql + Sync)> = owned.iter().map(|b| b.as_ref()).collect();
        self.0.execute(sql, &refs).map_err(|e| fail("write", e))
    }

    fn query(&mut self, sql: &str, params: &[Sql]) -> Result<Vec<Vec<Sql>>> {
        let owned = bind(params);
        let refs: Vec<&(dyn ToSql + Sync)> = owned.iter().map(|b| b.as_ref()).collect();
        let rows = self.0.query(sql, &refs).map_err(|e| fail("read", e))?;
        rows.iter()
            .map(|row| {
                (0..row.len())
                    .map(|i| {
                        let ty = row.columns()[i].type_();
                        Ok(if *ty == Type::INT8 {
                            row.try_get::<_, Option<i64>>(i)
                                .map_err(|e| fail("read", e))?
                                .map_or(Sql::Null, Sql::Int)
                        } else if *ty == Type::INT4 {
                            row.try_get::<_, Option<i32>>(i)
                                .map_err(|e| fail("read", e))?
                                .map_or(Sql::Null, |v| Sql::Int(i64::from(v)))
                        } else {
                            row.try_get::<_, Option<String>>(i)
                                .map_err(|e| fail("read", e))?
                                .map_or(Sql::Null, Sql::Text)
                        })
                    })
                    .collect()
            })
            .collect()
    }
}

impl Backend for Postgres {
    const NAME: &'static str = "postgres";

    fn transaction<T>(
        &self,
        lock: Option<&str>,
        f: &mut dyn FnMut(&mut dyn Tx) -> Result<T>,
    ) -> Result<T> {
        let mut client = self
            .client
            .lock()
            .map_err(|_| fail("lock", "a thread panicked while holding the connection"))?;
        let mut tx = client.transaction().map_err(|e| fail("begin", e))?;
        if let Some(name) = lock {
            // One lock per tool: the key lookup, the hourly count and the insert of one
            // tool's calls happen one transaction at a time across every worker.
            tx.execute("SELECT pg_advisory_xact_lock(hashtext($1))", &[&name])
                .map_err(|e| fail("lock", e))?;
        }
        let v = f(&mut PgTx(&mut tx))?;
        tx.commit().map_err(|e| fail("commit", e))?;
        Ok(v)
    }
}

/// The PostgreSQL ledger (feature `postgres`).
///
/// ```no_run
/// # fn main() -> palisade::Result<()> {
/// let ledger = palisade::PostgresLedger::connect("host=127.0.0.1 user=palisade dbname=palisade")?;
/// # Ok(()) }
/// ```
pub struct PostgresLedger(SqlLedger<Postgres>);

impl std::fmt::Debug for PostgresLedger {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("PostgresLedger")
    }
}

impl PostgresLedger {
    /// Connects (no TLS: run it on a private network or through a local socket) and creates
    /// the tables when missing.
    ///
    /// ```no_run
    /// # fn main() -> palisade::Result<()> {
    /// let ledger = palisade::PostgresLedger::connect("postgresql://palisade@127.0.0.1/palisade")?;
    /// # Ok(()) }
    /// ```
    pub fn connect(conninfo: &str) -> Result<Self> {
        Self::connect_in(conninfo, None)
    }

    /// Like [`connect`](Self::connect), with the tables in their own schema (created when
    /// missing): one database can hold several ledgers.
    ///
    /// ```no_run
    /// # fn main() -> palisade::Result<()> {
    /// let ledger = palisade::PostgresLedger::connect_in_schema("host=127.0.0.1 user=palisade", "support_eu")?;
    /// # Ok(()) }
    /// ```
    pub fn connect_in_schema(conninfo: &str, schema: &str) -> Result<Self> {
        Self::connect_in(conninfo, Some(schema))
    }

    fn connect_in(conninfo: &str, schema: Option<&str>) -> Result<Self> {
        let mut client = Client::connect(conninfo, NoTls).map_err(|e| fail("connect", e))?;
        client
            .execute("SELECT pg_advisory_lock($1)", &[&SCHEMA_LOCK])
            .map_err(|e| fail("create tables", e))?;
        let mut setup = String::new();
        if let Some(s) = schema {
            if s.is_empty() || !s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
                return Err(fail(
                    "connect",
                    format!("schema name {s:?} is not [A-Za-z0-9_]+"),
                ));
            }
            setup.push_str(&format!(
                "CREATE SCHEMA IF NOT EXISTS {s}; SET search_path TO {s};"
            ));
        }
        setup.push_str(TABLES);
        setup.push_str(AUDIT);
        let created = client
            .batch_execute(&setup)
            .map_err(|e| fail("create tables", e));
        client
            .execute("SELECT pg_advisory_unlock($1)", &[&SCHEMA_LOCK])
            .map_err(|e| fail("create tables", e))?;
        created?;
        Ok(PostgresLedger(SqlLedger {
            db: Postgres {
                client: Mutex::new(client),
            },
        }))
    }
}

super::forward_ledger!(PostgresLedger);
