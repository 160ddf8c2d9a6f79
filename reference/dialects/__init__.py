"""The built-in dialects; importing this package registers each of them."""

from . import (  # noqa: F401
    deepseek_v3,
    gpt_oss,
    hermes,
    internlm,
    kimi_k2,
    llama3,
    mistral,
    reasoning_only,
)
