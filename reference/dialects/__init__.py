"""The built-in dialects; importing this package registers each of them."""

from . import deepseek_v3, hermes, internlm, kimi_k2, llama3, mistral, reasoning_only  # noqa: F401
