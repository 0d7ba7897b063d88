"""The YAML mapping tables: loading and checking them, the pickled cache,
verification against real HIP headers, and the docs generated from them."""
