"""A capture's or a bench file's JSON, gzipped (NAME.json.gz, as the bundled capture is) or not, told apart by
the gzip magic bytes as gemmscope's own reader does."""
import gzip
import json


def load_json(path):
    with open(path, "rb") as f:
        gz = f.read(2) == b"\x1f\x8b"
    with (gzip.open(path, "rt") if gz else open(path)) as f:
        return json.load(f)
