"""Reading a caller's values as a person taking notes: the kind of each field
(`kinds.py`), a value out of a plain answer or a spelling (`reading.py`), and whisper's
ways with a spelling (`alphabet.py`). Only what any agent sees: the tool schemas and the
caller's words. Shared by the reference agent and the listener."""
