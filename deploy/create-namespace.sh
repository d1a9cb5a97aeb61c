#!/bin/sh
# The namespace job (the temporal-create-namespace service; the production test tier runs this same
# file): once the server at TEMPORAL_ADDRESS answers, creates DEFAULT_NAMESPACE unless it exists and
# registers toolrail's search attributes in it (registering one that exists changes nothing).
# Any error stops the job.
set -eu
namespace="${DEFAULT_NAMESPACE:?set DEFAULT_NAMESPACE}"

attempt=1
until temporal operator cluster health; do
  if [ "$attempt" -ge 30 ]; then
    echo "the Temporal server at ${TEMPORAL_ADDRESS:-localhost:7233} did not become healthy" >&2
    exit 1
  fi
  attempt=$((attempt + 1))
  sleep 2
done

if temporal operator namespace describe --namespace "$namespace" >/dev/null 2>&1; then
  echo "namespace $namespace exists"
else
  temporal operator namespace create --namespace "$namespace"
fi

# toolrail's search attributes (src/session/search-attributes.ts; a test keeps this list equal). A
# namespace just created reaches the server's namespace cache within seconds: until then this fails
# with "Namespace … is not found", so it is tried again for up to a minute.
attempt=1
until temporal operator search-attribute create --namespace "$namespace" \
  --name ToolrailStatus --type Keyword \
  --name ToolrailLastTool --type Keyword \
  --name ToolrailBlockedCalls --type Int \
  --name ToolrailPendingApprovals --type Int \
  --name ToolrailTotalTokens --type Int; do
  if [ "$attempt" -ge 30 ]; then
    echo "could not register toolrail's search attributes in namespace $namespace" >&2
    exit 1
  fi
  attempt=$((attempt + 1))
  sleep 2
done
echo "namespace $namespace is ready"
