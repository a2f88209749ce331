"""The runtime core: dtypes, places, the Tensor, printing, promotion, interop with torch."""
