"""In-process adapters for the parsers of real serving engines.

Each module wraps one engine behind the harness's adapter contract,
``factory(dialect, request, *, tokenizer_family=None) -> session`` with ``feed`` / ``finish``
(and ``parse``), maps our dialect names onto the engine's registered parser names
(``factory.dialects``) and imports without its engine: the engines are optional installs, one
tox environment each (``tox -e lmdeploy``, ``sglang``, ``vllm``, ``harmony``).
"""

#: Adapter specs of the built-in engine adapters, ``module:callable`` as ``--adapter`` takes them.
ENGINE_ADAPTERS = {
    "lmdeploy": "toolconform.harness.engines.lmdeploy:factory",
    "sglang": "toolconform.harness.engines.sglang:factory",
    "sglang-serving": "toolconform.harness.engines.sglang:serving_factory",
    "vllm": "toolconform.harness.engines.vllm:factory",
    "vllm-plugin": "toolconform.harness.engines.vllm:plugin_factory",
    "harmony": "toolconform.harness.engines.harmony:factory",
}
