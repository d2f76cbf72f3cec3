"""The actions-v1 suite: DuplexAct-style interaction-action items."""
