#!/bin/sh
# Temporal's schema job (the temporal-admin-tools service; the production test tier runs this same
# file), the steps of Temporal's compose reference: creates Temporal's two databases and brings
# their schemas to the version of this temporal-sql-tool (its embedded schema). The tool reads its
# connection from SQL_PLUGIN, SQL_HOST, SQL_PORT, SQL_USER and SQL_PASSWORD. Safe to rerun: on
# PostgreSQL a database that exists is kept, and the schema steps apply only what is missing. Any
# error stops the job.
set -eu

for database in temporal temporal_visibility; do
  case "$database" in
    temporal) schema=postgresql/v12/temporal ;;
    *) schema=postgresql/v12/visibility ;;
  esac
  temporal-sql-tool --db "$database" create-database
  temporal-sql-tool --db "$database" setup-schema -v 0.0
  temporal-sql-tool --db "$database" update-schema --schema-name "$schema"
done
echo 'Temporal schema is set up'
