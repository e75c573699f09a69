#!/usr/bin/env python3
"""Regenerates `schema.json` beside this script: the shape of every typed resource of the
hashicorp/kubernetes provider (`kubernetes_<kind>_v<N>`) that `toscana tf --provider kubernetes`
may write an object as, so that the conversion from a Kubernetes object to HCL is data, not one
Rust function per kind (src/back/terraform/kubernetes/).

For each resource it keeps what the conversion needs: the names of its arguments (written
`name = value`), its nested blocks (written `name { ... }`), recursively, and which blocks the
provider requires. Required arguments and exported attributes are the schema checker's business,
not the writer's.

The source is the provider schema the checker uses, `tests/checkers/terraform_schema/kubernetes.json`
(itself extracted from the CDK for Terraform binding of the provider version toscana pins, by
`tests/checkers/terraform_schema/extract.py`), so the writer and the checker can never disagree.
Run it after that file changes:

    python3 backends/terraform/kubernetes/schema.py
"""

import json
import os
import re

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.join(HERE, "..", "..", "..", "tests", "checkers", "terraform_schema", "kubernetes.json")
# The typed resources of one API version of a kind; `kubernetes_manifest` and the unversioned
# aliases are left out (the writer picks the versioned name from the object's apiVersion).
TYPED = re.compile(r"^kubernetes_[a-z0-9_]+_v\d+$")
# Blocks of the provider's own, not of the object.
PROVIDER_BLOCKS = {"timeouts"}


def shape(block):
    out = {}
    arguments = sorted(set(block.get("required", [])) | set(block.get("optional", [])) - {"id"})
    if arguments:
        out["arguments"] = arguments
    blocks = {
        name: shape(inner)
        for name, inner in sorted(block.get("blocks", {}).items())
        if name not in PROVIDER_BLOCKS
    }
    if blocks:
        out["blocks"] = blocks
    # Blocks the provider requires (at least one): an object without the field for one cannot be
    # that typed resource (a Role without `rules` is no `kubernetes_role_v1`), so the writer
    # falls back to `kubernetes_manifest`.
    required = sorted(
        name
        for name, inner in block.get("blocks", {}).items()
        if name not in PROVIDER_BLOCKS and inner.get("min", 0) >= 1
    )
    if required:
        out["required_blocks"] = required
    return out


def main():
    with open(SOURCE) as f:
        schema = json.load(f)
    resources = {name: shape(body) for name, body in sorted(schema["resources"].items()) if TYPED.match(name)}
    lines = ["{", f'"provider_version":{json.dumps(schema["provider_version"])},', '"resources":{']
    lines.append(",\n".join(f"{json.dumps(n)}:{json.dumps(b, separators=(',', ':'))}" for n, b in resources.items()))
    lines.append("}")
    lines.append("}")
    path = os.path.join(HERE, "schema.json")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    print(f"{path}: {len(resources)} resources")


if __name__ == "__main__":
    main()
