"""`xai-realtime` and `azure-realtime`: the `openai-realtime` adapter for providers that speak
the same protocol and differ in URL, auth header, model names and session shape.

Each provider is a row of :data:`PRESETS` (URL template, auth header and scheme,
default model, voice and key variable, the voices it documents, and its
dialect: the `session.update` shape and the event names, `ga`, `beta` or
`xai`). :func:`preset_options` turns an agent spec into `PresetOptions`, which are
the adapter's own `RealtimeOptions` with the preset's URL and header; the
factories return the same `OpenAIRealtimeAgent` (nothing of the adapter is
copied). The key rules are the adapter's: the key is read from `api_key_env`
when connecting, kept in a `Secret`, and never stored in the options, logged or
put in an error. docs/agents.md, "Presets: xAI and Azure OpenAI".

- `xai-realtime[:MODEL]`: xAI's voice agent API (Grok),
  `wss://api.x.ai/v1/realtime?model=MODEL` with `Authorization: Bearer $XAI_API_KEY`
  (https://docs.x.ai/docs/guides/voice/agent).
- `azure-realtime[:DEPLOYMENT]?resource=NAME` (or `endpoint=URL`): an Azure OpenAI
  realtime deployment, `wss://NAME.openai.azure.com/openai/v1/realtime?model=DEPLOYMENT`
  with `api-key: $AZURE_OPENAI_API_KEY` (`auth=bearer`: an Entra token from
  `AZURE_OPENAI_AD_TOKEN`); `api_version=...` selects the older preview form,
  `/openai/realtime?api-version=...&deployment=...`, which speaks the beta protocol
  (https://learn.microsoft.com/azure/ai-foundry/openai/how-to/realtime-audio-websockets).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, fields, replace
from typing import Any
from urllib.parse import quote, urlparse

from duplexbench.agents._providers import openai_realtime_protocol as rt
from duplexbench.agents._providers.openai_realtime import OpenAIRealtimeAgent
from duplexbench.agents._providers.openai_realtime_protocol import RealtimeOptions
from duplexbench.agents._registry import AgentSpec, Channel, register_agent

__all__ = ["PRESETS", "Preset", "PresetOptions", "preset_options"]

XAI_VOICES = frozenset(("eve", "ara", "rex", "sal", "leo"))
"""The voices xAI's voice agent API documents (ids are case-insensitive)."""


@dataclass(frozen=True)
class Preset:
    """One provider: where to connect, how to authenticate, what to ask for."""

    url: str
    """Template of the WebSocket URL: `{base}` (ws(s)://, no trailing slash), `{model}`
    (the model or deployment) and `{api_version}`, each URL-quoted."""
    base: str
    """The default base (`{resource}`: the Azure resource name)."""
    auth_header: str
    auth_scheme: str
    """`Bearer` (the header is `Bearer <key>`) or empty (the key alone)."""
    model: str
    voice: str
    voices: frozenset[str]
    key_env: str
    api: str
    """The dialect: `ga` or `beta` (OpenAI's session shapes and event names) or `xai`."""


PRESETS: dict[str, Preset] = {
    "xai": Preset(
        url="{base}/realtime?model={model}",
        base="wss://api.x.ai/v1",
        auth_header="Authorization",
        auth_scheme="Bearer",
        model="grok-voice-latest",
        voice="eve",
        voices=XAI_VOICES,
        key_env="XAI_API_KEY",
        api="xai",
    ),
    "azure": Preset(
        url="{base}/openai/v1/realtime?model={model}",
        base="https://{resource}.openai.azure.com",
        auth_header="api-key",
        auth_scheme="",
        model="gpt-realtime",
        voice="marin",
        voices=rt.KNOWN_VOICES,
        key_env="AZURE_OPENAI_API_KEY",
        api="ga",
    ),
}
PRESETS["azure-preview"] = replace(  # Azure's preview endpoint: the beta protocol
    PRESETS["azure"],
    url="{base}/openai/realtime?api-version={api_version}&deployment={model}",
    api="beta",
)
"""The providers. `azure-realtime` uses `azure-preview` when `api_version` is given."""

AZURE_TOKEN_ENV = "AZURE_OPENAI_AD_TOKEN"
"""The variable of an Entra token with `auth=bearer` (the `openai` SDK's name)."""

_COMMON = (
    "voice",
    "voice_check",
    "api_key_env",
    "transcription",
    "vad_threshold",
    "vad_silence_ms",
    "connect_timeout",
    "max_inbox",
    "interrupt_response",
    "episode_metadata",
)
XAI_OPTIONS = (*_COMMON, "base_url")
AZURE_OPTIONS = (*_COMMON, "resource", "endpoint", "deployment", "api_version", "auth")
_TYPES: dict[str, type] = {
    f.name: {"float": float, "int": int}.get(str(f.type), str) for f in fields(RealtimeOptions)
}
_RESOURCE = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?")
_API_VERSION = re.compile(r"\d{4}-\d{2}-\d{2}(?:-preview)?")


@dataclass(frozen=True)
class PresetOptions(RealtimeOptions):
    """`RealtimeOptions` with a preset's URL, auth header and voices (`preset_options`)."""

    preset: str = "openai-realtime"
    """The agent name (the prefix of errors and failures)."""
    endpoint_url: str = ""
    auth_header: str = "Authorization"
    auth_scheme: str = "Bearer"
    voices: frozenset[str] = rt.KNOWN_VOICES

    @property
    def agent_name(self) -> str:
        return self.preset

    @property
    def url(self) -> str:
        return self.endpoint_url

    def known_voices(self) -> frozenset[str]:
        return self.voices

    def headers(self, key: str | None) -> dict[str, str]:
        if not key:
            return {}
        return {self.auth_header: f"{self.auth_scheme} {key}" if self.auth_scheme else key}

    def validate(self, apis: tuple[str, ...] = ("ga", "beta", "xai")) -> None:
        super().validate(apis)


def preset_options(spec: AgentSpec) -> PresetOptions:
    """The options of an `xai-realtime` or `azure-realtime` spec; ValueError naming the
    problem (an unknown option with the known ones, a missing `resource`, ...)."""
    build = _BUILDERS.get(spec.name)
    if build is None:
        raise ValueError(f"no realtime preset {spec.name!r}; presets: {', '.join(_BUILDERS)}")
    return build(spec)


def _xai(spec: AgentSpec) -> PresetOptions:
    name, preset = "xai-realtime", PRESETS["xai"]
    values = _typed(name, spec.options, XAI_OPTIONS)
    if values.get("interrupt_response") == "off":
        raise ValueError(
            f"{name}: interrupt_response=off is not supported: xAI documents no setting that "
            "keeps its server VAD from interrupting a response"
        )
    base = str(values.pop("base_url", preset.base))
    return _build(name, preset, values, model=spec.model or preset.model, base=base)


def _azure(spec: AgentSpec) -> PresetOptions:
    name, given = "azure-realtime", spec.options
    values = _typed(name, given, AZURE_OPTIONS)
    resource, endpoint = given.get("resource", ""), given.get("endpoint", "")
    if bool(resource) == bool(endpoint):
        raise ValueError(
            f"{name}: give the Azure resource: resource=NAME (for NAME.openai.azure.com) or "
            f"endpoint=URL (e.g. https://NAME.openai.azure.com), one of them"
            + (", not both" if resource else "")
        )
    if resource and not _RESOURCE.fullmatch(resource):
        raise ValueError(
            f"{name}: resource {resource!r} is not a resource name (letters, digits, -)"
        )
    parts = urlparse(endpoint)
    if endpoint and (not parts.hostname or parts.query or parts.fragment):
        raise ValueError(
            f"{name}: endpoint {endpoint!r} is not a URL like https://NAME.openai.azure.com"
        )
    api_version = given.get("api_version", "")
    if api_version and not _API_VERSION.fullmatch(api_version):
        raise ValueError(f"{name}: api_version {api_version!r} is not like 2025-04-01-preview")
    auth = given.get("auth", "api-key")
    if auth not in ("api-key", "bearer"):
        raise ValueError(f"{name}: auth must be 'api-key' or 'bearer', got {auth!r}")
    preset = PRESETS["azure-preview" if api_version else "azure"]
    if auth == "bearer":
        preset = replace(
            preset, auth_header="Authorization", auth_scheme="Bearer", key_env=AZURE_TOKEN_ENV
        )
    base = endpoint or preset.base.format(resource=resource)
    deployment = given.get("deployment") or spec.model or preset.model
    return _build(name, preset, values, model=deployment, base=base, api_version=api_version)


def _typed(name: str, given: dict[str, str], known: tuple[str, ...]) -> dict[str, Any]:
    """The adapter options among `given`, converted; ValueError for unknown options."""
    unknown = sorted(set(given) - set(known))
    if unknown:
        raise ValueError(
            f"{name}: unknown option(s) {', '.join(unknown)}; known: {', '.join(sorted(known))}"
        )
    values: dict[str, Any] = {}
    for option, value in given.items():
        kind = _TYPES.get(option)
        if kind is None:
            continue  # the preset's own (resource, deployment, ...)
        try:
            values[option] = kind(value)
        except ValueError:
            raise ValueError(
                f"{name}: option {option}={value!r} is not a {kind.__name__}"
            ) from None
    return values


def _build(
    name: str,
    preset: Preset,
    values: dict[str, Any],
    *,
    model: str,
    base: str,
    api_version: str = "",
) -> PresetOptions:
    voice = str(values.pop("voice", preset.voice))
    url = preset.url.format(
        base=rt.websocket_url(base),
        model=quote(model, safe=""),
        api_version=quote(api_version, safe=""),
    )
    options = PresetOptions(
        model=model,
        voice=voice.lower() if voice.lower() in preset.voices else voice,
        base_url=base,
        api_key_env=str(values.pop("api_key_env", preset.key_env)),
        api=preset.api,
        preset=name,
        endpoint_url=url,
        auth_header=preset.auth_header,
        auth_scheme=preset.auth_scheme,
        voices=preset.voices,
        **values,
    )
    options.validate()
    return options


_BUILDERS: dict[str, Callable[[AgentSpec], PresetOptions]] = {
    "xai-realtime": _xai,
    "azure-realtime": _azure,
}


@register_agent(
    "xai-realtime",
    description="xAI voice agent API (Grok) over WebSocket: openai-realtime with xAI's URL, "
    "key and session shape.",
    channels=("audio",),
)
def _xai_factory(spec: AgentSpec, channel: Channel) -> Any:  # a StreamingAgent
    return OpenAIRealtimeAgent(preset_options(spec))


@register_agent(
    "azure-realtime",
    description="An Azure OpenAI realtime deployment over WebSocket (resource=NAME): "
    "openai-realtime with Azure's URL and api-key header.",
    channels=("audio",),
)
def _azure_factory(spec: AgentSpec, channel: Channel) -> Any:  # a StreamingAgent
    return OpenAIRealtimeAgent(preset_options(spec))
