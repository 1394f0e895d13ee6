"""Model building blocks: attention over the paged KV cache, rotary, norms, MLP."""
