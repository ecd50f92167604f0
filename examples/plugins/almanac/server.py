#!/usr/bin/python3
"""The Almanac: an MCP server over stdio (newline-delimited JSON-RPC 2.0), with no library but Python's own.

It runs in the node's sandbox: its folder is read-only at /plugin, its data folder (the working directory,
/workspace) the one place it may write, and it has no network unless the owner grants `network`.
"""
import json
import os
import sys

VERSIONS = ["2025-11-25", "2025-06-18", "2025-03-26"]

TOOLS = [
    {
        "name": "word_count",
        "title": "Count words",
        "description": "Counts the words and characters of a text.",
        "inputSchema": {
            "type": "object",
            "properties": {"text": {"type": "string", "maxLength": 10000}},
            "required": ["text"],
            "additionalProperties": False,
        },
        "annotations": {"readOnlyHint": True, "openWorldHint": False},
    },
    {
        "name": "pin_note",
        "title": "Pin a note",
        "description": "Pins a note to the board (a file in the plugin's data folder).",
        "inputSchema": {
            "type": "object",
            "properties": {"text": {"type": "string", "minLength": 1, "maxLength": 500}},
            "required": ["text"],
            "additionalProperties": False,
        },
    },
    {
        "name": "board",
        "title": "Read the board",
        "description": "The notes pinned so far, oldest first.",
        "inputSchema": {"type": "object", "properties": {}},
        "annotations": {"readOnlyHint": True, "openWorldHint": False},
    },
]


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def text_result(text, structured=None, error=False):
    result = {"content": [{"type": "text", "text": text}], "isError": error}
    if structured is not None:
        result["structuredContent"] = structured
    return result


def board():
    try:
        with open("board.txt", encoding="utf-8") as notes:
            return [line.rstrip("\n") for line in notes if line.strip()]
    except FileNotFoundError:
        return []


def call(name, arguments):
    if name == "word_count":
        text = arguments["text"]
        counts = {"words": len(text.split()), "characters": len(text)}
        return text_result(f"{counts['words']} words, {counts['characters']} characters", counts)
    if name == "pin_note":
        with open("board.txt", "a", encoding="utf-8") as notes:
            notes.write(arguments["text"].replace("\n", " ") + "\n")
        return text_result("Pinned.", {"pinned": len(board())})
    if name == "board":
        notes = board()
        return text_result("\n".join(notes) or "The board is empty.", {"notes": notes})
    return None


for line in sys.stdin:
    try:
        message = json.loads(line)
    except ValueError:
        continue
    method, ident = message.get("method"), message.get("id")
    params = message.get("params") or {}
    if method == "initialize":
        asked = params.get("protocolVersion")
        send({"jsonrpc": "2.0", "id": ident, "result": {
            "protocolVersion": asked if asked in VERSIONS else VERSIONS[1],
            "capabilities": {"tools": {}},
            "serverInfo": {"name": "almanac", "version": "1.0.0"},
        }})
    elif method == "tools/list":
        send({"jsonrpc": "2.0", "id": ident, "result": {"tools": TOOLS}})
    elif method == "tools/call":
        result = call(params.get("name"), params.get("arguments") or {})
        if result is None:
            send({"jsonrpc": "2.0", "id": ident, "error": {"code": -32602, "message": "Unknown tool"}})
        else:
            send({"jsonrpc": "2.0", "id": ident, "result": result})
    elif method == "ping":
        send({"jsonrpc": "2.0", "id": ident, "result": {}})
    elif ident is not None:
        send({"jsonrpc": "2.0", "id": ident, "error": {"code": -32601, "message": "Method not found"}})
