"""Drives a toolrail session from Python temporalio (no External Storage: every payload inline) with
payloads over Temporal's 256 KiB External Storage threshold: a 300 KB first message, then a 300 KB
signal (whose run's call it approves with a 300 KB reason) and a 300 KB update, each a run of its
own. Prints one JSON line: the session's result.

    python big_payloads.py input.json session-id    # TEMPORAL_ADDRESS, TOOLRAIL_TASK_QUEUE
"""

import asyncio
import json
import os
import sys

from temporalio.client import Client


async def runs(handle, count: int) -> None:
    """Ask the status query again until the session is idle after `count` runs."""
    deadline = asyncio.get_running_loop().time() + 60
    while True:
        status = await handle.query("status")
        if status["status"] == "idle" and status["counters"]["runs"] == count:
            return
        if asyncio.get_running_loop().time() > deadline:
            raise TimeoutError(f"session not idle after {count} runs: {status}")
        await asyncio.sleep(0.1)


async def pending_approval(handle) -> str:
    """Ask the ruleState query again until a call waits for approval; its callId."""
    deadline = asyncio.get_running_loop().time() + 60
    while True:
        state = await handle.query("ruleState", {})
        if state["pendingApprovals"]:
            return state["pendingApprovals"][0]["callId"]
        if asyncio.get_running_loop().time() > deadline:
            raise TimeoutError("no approval was asked for")
        await asyncio.sleep(0.1)


async def main(input_file: str, session_id: str) -> None:
    client = await Client.connect(os.environ["TEMPORAL_ADDRESS"])
    with open(input_file, encoding="utf-8") as file:
        start_input = json.load(file)
    handle = await client.start_workflow(
        "agentSession", start_input, id=session_id, task_queue=os.environ["TOOLRAIL_TASK_QUEUE"]
    )
    await runs(handle, 1)
    await handle.signal("userMessage", {"text": "signal: " + "x" * 300_000})
    # The signal's run asks for an approval: approved with a 300 KB reason.
    call_id = await pending_approval(handle)
    await handle.execute_update("approveToolCall", {"callId": call_id, "approved": True, "reason": "x" * 300_000})
    await runs(handle, 2)
    await handle.execute_update("sendUserMessage", {"text": "update: " + "x" * 300_000})
    await runs(handle, 3)
    await handle.signal("endSession")
    result = await handle.result()
    print(json.dumps({"status": result["status"], "runs": result["counters"]["runs"]}), flush=True)


if __name__ == "__main__":
    asyncio.run(main(*sys.argv[1:]))
    # A short-lived client process can abort while the interpreter shuts down under the client's
    # background threads (temporalio/sdk-python#300): once the work is done and printed, leave at once.
    sys.stdout.flush()
    os._exit(0)
