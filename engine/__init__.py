"""supportdesk's embedded LLM engine: paged KV cache, continuous batching, int8 weights."""
