"""Will & Descriptors (draft): Will, descriptors rated in d10s, opposed pools, the Power track, keys."""
