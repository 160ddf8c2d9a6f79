"""The built-in dialects; importing this package registers each of them."""

from . import ds2api, hermes, internlm, llama3, reasoning_only  # noqa: F401
