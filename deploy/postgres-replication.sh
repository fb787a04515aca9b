#!/bin/sh
# compose.yaml's primary, on its first start (docker-entrypoint-initdb.d): the replica's base backup and its
# WAL streaming are replication connections, which pg_hba.conf's "all" does not cover.
echo 'host replication all all scram-sha-256' >> "$PGDATA/pg_hba.conf"
