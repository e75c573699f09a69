#!/usr/bin/env python3
"""Regenerates the provider schemas that `tests/checkers/terraform_schema.rs` checks every
Terraform output against (issue 27, scope 7), since `terraform validate` cannot download
providers where the tests run.

The schemas come from the CDK for Terraform bindings on PyPI: each wheel carries a jsii assembly
(`_jsii/*.jsii.tgz`) that describes every resource and data source of one provider version: its
arguments (required or optional), its nested blocks and the attributes it exports. The bindings
below are the ones whose provider versions satisfy the `required_providers` constraints toscana
writes (`src/back/terraform/`: aws `~> 6.0`, kubernetes `~> 2.36`, openstack `~> 3.0`, cloudinit
`~> 2.3`); change both together.

Usage (network needed, once, by whoever changes a version; tests never download anything):

    python3 tests/checkers/terraform_schema/extract.py [--wheels DIR]

Without `--wheels` the wheels are fetched with `pip download` into a temporary folder. One
compact JSON file per provider is written beside this script: only what the checker needs.
"""

import argparse
import glob
import io
import json
import os
import re
import subprocess
import sys
import tarfile
import tempfile
import zipfile

# (file stem, PyPI binding, the provider version it binds, the constraint toscana writes)
BINDINGS = [
    ("aws", "cdktn-provider-aws==25.8.1", "hashicorp/aws 6.69.1", "~> 6.0"),
    ("kubernetes", "cdktn-provider-kubernetes==14.0.0", "hashicorp/kubernetes 2.38.0", "~> 2.36"),
    (
        "openstack",
        "cdktf-cdktf-provider-openstack==1.0.0",
        "terraform-provider-openstack/openstack 3.0.0",
        "~> 3.0",
    ),
    ("cloudinit", "cdktn-provider-cloudinit==14.0.1", "hashicorp/cloudinit 2.4.1", "~> 2.3"),
]

# "Represents a {@link https://registry.terraform.io/.../docs/resources/instance aws_instance}."
REPRESENTS = re.compile(r"\{@link (\S+) (\w+)\}")
# "Docs at Terraform Registry: {@link https://...#root_block_device Instance#root_block_device}"
ANCHOR = re.compile(r"\{@link \S+#(\w+) ")


def assembly(wheel):
    """The jsii assembly (parsed JSON) inside a binding wheel."""
    with zipfile.ZipFile(wheel) as whl:
        (tgz,) = [n for n in whl.namelist() if n.endswith(".jsii.tgz")]
        with tarfile.open(fileobj=io.BytesIO(whl.read(tgz))) as tar:
            return json.load(tar.extractfile("package/.jsii"))


def snake(camel):
    """jsii's camelCase property name back to Terraform's snake_case."""
    return re.sub(r"(?<!^)([A-Z])", r"_\1", camel).lower()


def tf_name(prop):
    """A configuration property's Terraform name: the registry anchor its docs link to."""
    found = ANCHOR.search(prop.get("docs", {}).get("remarks", ""))
    return found.group(1) if found else snake(prop["name"])


def struct_of(type_ref, types):
    """The nested block's struct when a property's type is one (alone, in a list, or in a
    union with IResolvable), else None."""
    if "fqn" in type_ref:
        t = types.get(type_ref["fqn"])
        return t if t is not None and t.get("datatype") else None
    if "collection" in type_ref:
        return struct_of(type_ref["collection"]["elementtype"], types)
    if "union" in type_ref:
        for member in type_ref["union"]["types"]:
            found = struct_of(member, types)
            if found is not None:
                return found
    return None


def block(struct, types, depth=0):
    """The schema of a configuration struct: arguments, nested blocks, required names."""
    required, optional, blocks = [], [], {}
    for prop in struct.get("properties", []):
        name = tf_name(prop)
        nested = struct_of(prop["type"], types)
        summary = prop.get("docs", {}).get("summary", "")
        if nested is not None and summary.endswith(" block.") and depth < 12:
            inner = block(nested, types, depth + 1)
            if not prop.get("optional"):
                inner["min"] = 1
            blocks[name] = inner
        elif prop.get("optional"):
            optional.append(name)
        else:
            required.append(name)
    out = {}
    if required:
        out["required"] = sorted(required)
    if optional:
        out["optional"] = sorted(optional)
    if blocks:
        out["blocks"] = dict(sorted(blocks.items()))
    return out


def exported(cls, arguments):
    """The attributes a resource exports beyond its arguments: its getters, less the `*Input`
    twins of its arguments and the static `tfResourceType`."""
    names = set()
    for prop in cls.get("properties", []):
        if prop.get("static") or prop["name"].endswith("Input"):
            continue
        names.add(snake(prop["name"]))
    return sorted(names - arguments)


def provider_schema(asm):
    types = asm["types"]
    out = {"resources": {}, "data_sources": {}}
    for fqn, cls in sorted(types.items()):
        if cls["kind"] != "class" or "base" not in cls:
            continue
        base = cls["base"].split(".")[-1]
        kind = {
            "TerraformResource": "resources",
            "TerraformDataSource": "data_sources",
            "TerraformProvider": "provider",
        }.get(base)
        found = REPRESENTS.search(cls.get("docs", {}).get("summary", ""))
        if kind is None or found is None:
            continue
        # The struct the constructor takes (usually `<Class>Config`, renamed where that
        # collides with a generated type).
        params = cls.get("initializer", {}).get("parameters", [])
        config = next((types.get(p["type"].get("fqn")) for p in params if p["name"] == "config"), None)
        if config is None:
            sys.exit(f"{fqn}: no config parameter in its constructor")
        schema = block(config, types)
        if kind == "provider":
            out["provider_config"] = schema
            continue
        arguments = set(schema.get("required", [])) | set(schema.get("optional", []))
        arguments |= set(schema.get("blocks", {}))
        schema["exported"] = exported(cls, arguments)
        out[kind][found.group(2)] = schema
    return out


def compact(schema):
    """JSON with one line per resource and data source type, so that a new provider version
    shows in a diff as the types it changed."""
    lines = ["{"]
    for key, value in schema.items():
        if key in ("resources", "data_sources"):
            entries = [f"{json.dumps(name)}:{json.dumps(body, separators=(',', ':'))}" for name, body in value.items()]
            lines.append(f"{json.dumps(key)}:{{\n" + ",\n".join(entries) + "\n},")
        else:
            lines.append(f"{json.dumps(key)}:{json.dumps(value, separators=(',', ':'))},")
    lines[-1] = lines[-1].rstrip(",")
    return "\n".join(lines) + "\n}\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--wheels", help="a folder that already holds the four wheels")
    args = parser.parse_args()
    here = os.path.dirname(os.path.abspath(__file__))
    with tempfile.TemporaryDirectory() as tmp:
        wheels = args.wheels or tmp
        for stem, binding, version, constraint in BINDINGS:
            dist, pinned = binding.split("==")
            pattern = os.path.join(wheels, f"{dist.replace('-', '_')}-{pinned}-*.whl")
            if not glob.glob(pattern):
                subprocess.run(
                    [sys.executable, "-m", "pip", "download", "--no-deps", "-q", "-d", wheels, binding],
                    check=True,
                )
            (wheel,) = glob.glob(pattern)
            schema = {"provider_version": version, "constraint": constraint, "binding": binding}
            schema.update(provider_schema(assembly(wheel)))
            path = os.path.join(here, f"{stem}.json")
            with open(path, "w") as f:
                f.write(compact(schema))
            print(f"{path}: {len(schema['resources'])} resources, {len(schema['data_sources'])} data sources")


if __name__ == "__main__":
    main()
