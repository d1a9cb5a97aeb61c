"""Drive a toolrail session from Python with the Temporal Python SDK (temporalio).

    toolrail input --rules rules.yaml --model openai:gpt-4.1-mini \
      --message "Search the knowledge base for refunds" > input.json
    python drive_session.py flow input.json support-1     # start, interrupt, approve, talk, end
    python drive_session.py transcript support-1          # the latest run's transcript, page by page
    python drive_session.py bad-input support-2           # a start input toolrail refuses

Connection: TEMPORAL_ADDRESS (default localhost:7233), TEMPORAL_NAMESPACE (default default),
TOOLRAIL_TASK_QUEUE (default toolrail). Each step prints one JSON line. The wire contract is in
toolrail's docs/wire.md.
"""

import asyncio
import json
import os
import sys

from temporalio.client import Client, WorkflowFailureError, WorkflowHandle
from temporalio.exceptions import ApplicationError


async def connect() -> Client:
    address = os.environ.get("TEMPORAL_ADDRESS", "localhost:7233")
    return await Client.connect(address, namespace=os.environ.get("TEMPORAL_NAMESPACE", "default"))


def say(step: str, **fields) -> None:
    print(json.dumps({"step": step, **fields}), flush=True)


async def rule_state(handle: WorkflowHandle) -> dict:
    """The whole ruleState answer: its pages, each list concatenated (a page holds at most ~128 KiB)."""
    pages, cursor = [], None
    while True:
        page = await handle.query("ruleState", {"cursor": cursor} if cursor else {})
        pages.append(page)
        cursor = page["next"]
        if cursor is None:
            break
    state = pages[0]
    for page in pages[1:]:
        for key in ("pendingApprovals", "runningCalls", "unavailableTools"):
            state[key] += page[key]
        for key, value in page["rules"].items():
            if isinstance(value, list) and key != "endCheck":
                state["rules"][key] += value
    return state


async def transcript(handle: WorkflowHandle) -> list:
    """The transcript entries the session's latest run keeps, page by page (after a continue-as-new,
    the earlier entries are in the earlier runs: the page's `start` says where this run's begin)."""
    entries, cursor = [], None
    while True:
        page = await handle.query("transcript", {"cursor": cursor} if cursor else {})
        entries += page["entries"]
        if not page["more"]:
            return entries
        cursor = page["next"]


async def wait_for(read, done, timeout: float = 60.0):
    """Ask again (a query) until `done` holds: a session answers queries at any time."""
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        value = await read()
        if done(value):
            return value
        if asyncio.get_running_loop().time() > deadline:
            raise TimeoutError(f"condition not met: {value}")
        await asyncio.sleep(0.1)


async def flow(input_file: str, session_id: str) -> None:
    client = await connect()
    with open(input_file, encoding="utf-8") as file:
        start_input = json.load(file)
    handle = await client.start_workflow(
        "agentSession", start_input, id=session_id, task_queue=os.environ.get("TOOLRAIL_TASK_QUEUE", "toolrail")
    )
    say("started", sessionId=handle.id)

    # A tool runs (its interruptBehavior is cancel): interrupt it, and give the next run its message.
    running = await wait_for(lambda: rule_state(handle), lambda s: len(s["runningCalls"]) > 0)
    say("running", tools=[call["toolName"] for call in running["runningCalls"]])
    await handle.signal("interrupt", {"text": "Refund order ORD-1 instead"})

    # The refund waits for a human: approve it (an update; a refused one raises).
    waiting = await wait_for(lambda: rule_state(handle), lambda s: len(s["pendingApprovals"]) > 0)
    approval = waiting["pendingApprovals"][0]
    say("approval", tool=approval["toolName"], callId=approval["callId"], input=approval["input"])
    decided = await handle.execute_update("approveToolCall", {"callId": approval["callId"], "approved": True})
    say("approved", decision=decided["decision"])

    # The run ends; a user message starts the next one.
    await wait_for(lambda: handle.query("status"), lambda s: s["status"] == "idle" and s["counters"]["runs"] == 2)
    await handle.signal("userMessage", {"text": "Thanks!"})
    status = await wait_for(lambda: handle.query("status"), lambda s: s["status"] == "idle" and s["counters"]["runs"] == 3)
    between = await rule_state(handle)
    say("between runs", phase=between["phase"], visible=between["rules"]["visible"])

    entries = await transcript(handle)
    say("transcript", kinds=[entry["kind"] for entry in entries])
    await handle.signal("endSession")
    result = await handle.result()
    say("result", status=result["status"], lastRunEnd=result["lastRunEnd"], runs=result["counters"]["runs"])


async def read_transcript(session_id: str) -> None:
    handle = (await connect()).get_workflow_handle(session_id)
    entries = await transcript(handle)
    say("transcript", entries=len(entries), bytes=len(json.dumps(entries).encode("utf-8")), last=entries[-1]["kind"])


async def bad_input(session_id: str) -> None:
    client = await connect()
    handle = await client.start_workflow(
        "agentSession", args=[None], id=session_id, task_queue=os.environ.get("TOOLRAIL_TASK_QUEUE", "toolrail")
    )
    try:
        await handle.result()
    except WorkflowFailureError as error:
        cause = error.cause
        assert isinstance(cause, ApplicationError)
        say("refused", type=cause.type, nonRetryable=cause.non_retryable, message=cause.message)


if __name__ == "__main__":
    command, *args = sys.argv[1:]
    commands = {"flow": flow, "transcript": read_transcript, "bad-input": bad_input}
    asyncio.run(commands[command](*args))
    # A short-lived client process can abort while the interpreter shuts down under the client's
    # background threads (temporalio/sdk-python#300): once the work is done and printed, leave at once.
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)
