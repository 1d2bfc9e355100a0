#!/usr/bin/env python3
"""A KV-event publisher written the way vLLM's ZmqEventPublisher (vllm/distributed/kv_events.py) publishes, for the
gateway's interoperability tests: a second encoder of the wire format, apart from the simulator's Java one.

    python3 publisher.py REPLAY TOPIC ENCODING RANK BUFFER_STEPS

REPLAY is 1 for a replay socket, 0 for none; ENCODING is "array" (msgspec's array_like, tag first) or "map" (tagged
maps). Both sockets bind random loopback ports, which the first line says: "ready PORT REPLAY_PORT" (0: none).
Commands, one JSON line each on stdin; each answers one line on stdout:
    {"publish": [EVENT, ...]}   send a batch                          -> its sequence number
    {"lose": [EVENT, ...]}      number and buffer a batch, not sent   -> its sequence number
    {"restart": true}           numbers from 0 again, buffer emptied  -> "restarted"
EVENT: {"stored": [hashes], "parent": h|null, "tokens": [ids], "block_size": n, "medium": "GPU"},
       {"removed": [hashes], "medium": "GPU"} or {"cleared": true}. Hashes are unsigned 64-bit integers.
"""
import json
import sys
import threading
import time
from collections import deque

import msgpack
import zmq

END_SEQ = (-1).to_bytes(8, "big", signed=True)
LOOPBACK = "tcp://127.0.0.1"


def event(e, as_map):
    if "stored" in e:
        fields = [("block_hashes", e["stored"]), ("parent_block_hash", e.get("parent")),
                  ("token_ids", e["tokens"]), ("block_size", e["block_size"]), ("lora_id", None),
                  ("medium", e.get("medium", "GPU")), ("lora_name", None)]
        tag = "BlockStored"
    elif "removed" in e:
        fields = [("block_hashes", e["removed"]), ("medium", e.get("medium", "GPU"))]
        tag = "BlockRemoved"
    else:
        fields = []
        tag = "AllBlocksCleared"
    if as_map:
        return dict([("type", tag)] + fields)
    return [tag] + [v for _, v in fields]


def batch(events, as_map, rank):
    encoded = [event(e, as_map) for e in events]
    if as_map:
        return msgpack.packb({"ts": time.time(), "events": encoded, "data_parallel_rank": rank})
    return msgpack.packb([time.time(), encoded, rank])


def main():
    replay, topic, encoding, rank, steps = sys.argv[1:6]
    as_map, rank = encoding == "map", int(rank)
    context = zmq.Context()
    pub = context.socket(zmq.PUB)
    pub.setsockopt(zmq.LINGER, 0)
    port = pub.bind_to_random_port(LOOPBACK)
    buffer = deque(maxlen=int(steps))
    lock = threading.Lock()
    state = {"next": 0}

    router = context.socket(zmq.ROUTER)
    router.setsockopt(zmq.LINGER, 0)
    replay_port = router.bind_to_random_port(LOOPBACK) if replay == "1" else 0

    def serve_replays():
        while True:
            client, _, start = router.recv_multipart()
            start = int.from_bytes(start, "big")
            with lock:
                held = list(buffer)
            for seq, payload in held:
                if seq >= start:
                    router.send_multipart((client, b"", seq.to_bytes(8, "big"), payload))
            router.send_multipart((client, b"", END_SEQ, b""))

    if replay_port:
        threading.Thread(target=serve_replays, daemon=True).start()
    print(f"ready {port} {replay_port}", flush=True)
    for line in sys.stdin:
        command = json.loads(line)
        with lock:
            if "restart" in command:
                state["next"] = 0
                buffer.clear()
                print("restarted", flush=True)
                continue
            seq = state["next"]
            state["next"] += 1
            payload = batch(command.get("publish", command.get("lose")), as_map, rank)
            buffer.append((seq, payload))
            if "publish" in command:
                pub.send_multipart((topic.encode(), seq.to_bytes(8, "big"), payload))
        print(seq, flush=True)


if __name__ == "__main__":
    main()
