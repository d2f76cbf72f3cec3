"""piper's onnxruntime session: memory settings that never change a sample."""

from __future__ import annotations

import json

import numpy as np
import pytest

from duplexbench.speech import _piper_session as piper_session
from duplexbench.speech._engines import PiperTTS
from duplexbench.speech._piper_session import piper_session_options
from duplexbench.speech._tts import SynthesisSettings

piper = pytest.importorskip("piper")
onnxruntime = pytest.importorskip("onnxruntime")
TEXT = "Yes, that's right. The order number is PO-6878-ZH."


def test_options_set_threads_and_leave_out_the_memory_pattern() -> None:
    options, run = piper_session_options(1)
    assert (options.intra_op_num_threads, options.inter_op_num_threads) == (1, 1)
    assert not options.enable_mem_pattern
    assert run.get_run_config_entry("memory.enable_memory_arena_shrinkage") == "cpu:0"


def test_a_rendering_only_process_keeps_its_arena(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(piper_session, "SHRINK", [True])
    piper_session.keep_arena()
    _, run = piper_session_options(1)
    with pytest.raises(RuntimeError):  # no such entry
        run.get_run_config_entry("memory.enable_memory_arena_shrinkage")


def test_samples_match_onnxruntimes_defaults_at_the_same_thread_count() -> None:
    engine = PiperTTS()
    ours, _ = engine.synthesize(TEXT, "joe", SynthesisSettings())
    options = onnxruntime.SessionOptions()  # PiperVoice.load's, on the engine's one thread
    options.intra_op_num_threads = 1
    session = onnxruntime.InferenceSession(
        str(engine._model_path), sess_options=options, providers=["CPUExecutionProvider"]
    )
    config = piper.config.PiperConfig.from_dict(json.loads(engine._config_path.read_text()))
    engine._voice = piper.PiperVoice(session=session, config=config)
    theirs, _ = engine.synthesize(TEXT, "joe", SynthesisSettings())
    assert np.array_equal(ours, theirs)


def test_another_thread_count_is_another_engine_version(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("DUPLEXBENCH_TTS_THREADS", raising=False)
    one = PiperTTS().version()
    assert "threads" not in one  # the keys made before threads were pinned still hold
    monkeypatch.setenv("DUPLEXBENCH_TTS_THREADS", "2")
    assert PiperTTS().version() == one + " / 2 threads"
