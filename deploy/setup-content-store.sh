#!/bin/sh
# The content store job (the content-store-setup service; the production test tier runs this same
# file): creates toolrail's content-store user and database in PostgreSQL unless they exist. psql
# connects with PGHOST, PGPORT, PGUSER, PGPASSWORD and PGDATABASE; the names and the password come
# from TOOLRAIL_DB_USER, TOOLRAIL_DB_PASSWORD and TOOLRAIL_DB_NAME. Any error stops the job.
set -eu

psql --no-psqlrc -v ON_ERROR_STOP=1 \
  -v user="${TOOLRAIL_DB_USER:?}" -v password="${TOOLRAIL_DB_PASSWORD:?}" -v database="${TOOLRAIL_DB_NAME:?}" <<'SQL'
SELECT format('CREATE ROLE %I LOGIN PASSWORD %L', :'user', :'password')
WHERE NOT EXISTS (SELECT FROM pg_roles WHERE rolname = :'user') \gexec
SELECT format('CREATE DATABASE %I OWNER %I', :'database', :'user')
WHERE NOT EXISTS (SELECT FROM pg_database WHERE datname = :'database') \gexec
SQL
echo "content store database $TOOLRAIL_DB_NAME is ready"
