"""Network adapters: `StreamingAgent`s (and the `text` agent) that reach a model over
the network, with the protocol, transport and key handling only they use.

The package imports nothing: `builtin.py` imports `text_chat.py` (the reference
agent's optional LLM brain), which must not bring the WebSocket adapters, asyncio
or websockets along; the others are imported when first asked for by name
(`_catalog.py`). See agents/README.md.
"""
