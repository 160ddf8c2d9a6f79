"""The built-in dialects; importing this package registers each of them."""

from . import (  # noqa: F401
    deepseek_v3,
    ds2api,
    dsml,
    glm,
    gpt_oss,
    hermes,
    internlm,
    kimi_k2,
    llama3,
    minimax_m2,
    mistral,
    qwen3_coder,
    reasoning_only,
)
