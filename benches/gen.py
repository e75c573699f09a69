#!/usr/bin/env python3
"""Generates deterministic large TOSCA service templates for benchmarks.

    python3 benches/gen.py --units 1000 --dialect 1.3 -o /tmp/bench-1k
    python3 benches/gen.py --units 1000 --dialect 2.0 -o /tmp/bench-1k-v2
    python3 benches/gen.py --units 100 --type-files 300 -o /tmp/bench-imports

Each unit is six node templates (five with --no-storage) in the shapes real estates have: a Compute with its host and os
capabilities (num_cpus from an input with constraints), a BlockStorage attached to it with
`AttachesTo`, a WebServer and a DBMS hosted on it, a Database on the DBMS, and an application of
a custom type five derivations deep hosted on the web server, whose properties use `get_input`,
`get_property` and `concat`, connected to its own database and, in a chain, to the previous
unit's application, and in a fan to the first unit's database every tenth unit. So `--units N`
gives 6N node templates. `--type-files K` moves the custom types into K imported files arranged
as a tree of imports (each file imports up to two others). The same arguments always give the
same bytes. Standard library only.
"""

import argparse
import os

V13 = "tosca_simple_yaml_1_3"
V20 = "tosca_2_0"


def custom_types_13(prefix="bench", depth=5):
    """`depth` application types, each derived from the previous, adding one property."""
    out = ["node_types:"]
    parent = "tosca.nodes.WebApplication"
    for level in range(1, depth + 1):
        name = f"{prefix}.AppLevel{level}"
        out += [
            f"  {name}:",
            f"    derived_from: {parent}",
            "    properties:",
            f"      level{level}:",
            "        type: integer",
            f"        default: {level}",
            "        constraints:",
            "          - in_range: [ 0, 100 ]",
        ]
        parent = name
    out += [
        "    requirements:",
        "      - database:",
        "          capability: tosca.capabilities.Endpoint.Database",
        "          relationship: tosca.relationships.ConnectsTo",
        "      - peer:",
        "          capability: tosca.capabilities.Endpoint",
        "          relationship: tosca.relationships.ConnectsTo",
        "          occurrences: [ 0, UNBOUNDED ]",
    ]
    return out


def unit_13(i, app_type, storage=True):
    prev = f"app{i - 1}" if i > 0 else None
    lines = [
        f"    vm{i}:",
        "      type: tosca.nodes.Compute",
        "      capabilities:",
        "        host:",
        "          properties:",
        "            num_cpus: { get_input: cpus }",
        "            mem_size: 4 GB",
        "            disk_size: 20 GB",
        "        os:",
        "          properties: { type: linux, distribution: ubuntu, version: \"22.04\" }",
    ]
    if storage:
        lines += [
            "      requirements:",
            "        - local_storage:",
            f"            node: disk{i}",
            "            relationship:",
            "              type: tosca.relationships.AttachesTo",
            "              properties: { location: /data }",
            f"    disk{i}:",
            "      type: tosca.nodes.Storage.BlockStorage",
            f"      properties: {{ name: disk-{i}, size: 10 GB }}",
        ]
    lines += [
        f"    web{i}:",
        "      type: tosca.nodes.WebServer",
        f"      requirements: [ {{ host: vm{i} }} ]",
        f"    dbms{i}:",
        "      type: tosca.nodes.DBMS",
        "      properties: { port: 5432, root_password: { get_input: db_password } }",
        f"      requirements: [ {{ host: vm{i} }} ]",
        f"    db{i}:",
        "      type: tosca.nodes.Database",
        f"      properties: {{ name: db{i}, user: app, port: {{ get_property: [ dbms{i}, port ] }} }}",
        f"      requirements: [ {{ host: dbms{i} }} ]",
        f"    app{i}:",
        f"      type: {app_type}",
        "      properties:",
        f"        context_root: {{ concat: [ /app, \"{i}\" ] }}",
        "        level5: { get_property: [ SELF, level4 ] }",
        "      requirements:",
        f"        - host: web{i}",
        f"        - database: db{i}",
    ]
    if prev:
        lines.append(f"        - peer: {{ node: {prev}, capability: app_endpoint }}")
    if i % 10 == 9:
        lines.append("        - peer: { node: db0, capability: database_endpoint }")
    lines += [
        "      interfaces:",
        "        Standard:",
        "          operations:",
        "            create: scripts/install.sh",
        "            configure:",
        "              implementation: scripts/configure.sh",
        f"              inputs: {{ db_host: {{ get_attribute: [ db{i}, database_endpoint, ip_address ] }} }}",
    ]
    return lines


def inputs_13():
    return [
        "  inputs:",
        "    cpus:",
        "      type: integer",
        "      default: 2",
        "      constraints: [ { valid_values: [ 1, 2, 4, 8 ] } ]",
        "    db_password:",
        "      type: string",
        "      default: bench-only",
        "      constraints: [ { min_length: 8 } ]",
    ]


def types_20():
    """TOSCA 2.0 has no implicit normative types: the template brings the few it uses."""
    return """capability_types:
  Host:
    properties:
      num_cpus: { type: integer }
      mem_size: { type: string }
  Endpoint:
    properties:
      port: { type: integer, required: false }
relationship_types:
  HostedOn: {}
  ConnectsTo: {}
node_types:
  Machine:
    capabilities:
      host: Host
  Server:
    capabilities:
      endpoint: Endpoint
    requirements:
      - host: { capability: Host, relationship: HostedOn }
  App1:
    derived_from: Server
    properties:
      level1: { type: integer, default: 1 }
  App2:
    derived_from: App1
    properties:
      level2: { type: integer, default: 2 }
  App3:
    derived_from: App2
    properties:
      level3: { type: integer, default: 3 }
  App4:
    derived_from: App3
    properties:
      level4: { type: integer, default: 4 }
  App5:
    derived_from: App4
    properties:
      level5: { type: integer, default: 5 }
      name: { type: string }
    requirements:
      - peer: { capability: Endpoint, relationship: ConnectsTo, count_range: [ 0, UNBOUNDED ] }
""".splitlines()


def unit_20(i):
    lines = [
        f"    vm{i}:",
        "      type: Machine",
        "      capabilities:",
        "        host:",
        "          properties: { num_cpus: { $get_input: cpus }, mem_size: 4 GB }",
        f"    web{i}:",
        "      type: Server",
        f"      requirements: [ {{ host: vm{i} }} ]",
        f"    app{i}:",
        "      type: App5",
        f"      properties: {{ name: {{ $concat: [ app-, \"{i}\" ] }} }}",
        "      requirements:",
        f"        - host: vm{i}",
    ]
    if i > 0:
        lines.append(f"        - peer: web{i - 1}")
    return lines


def write(path, lines):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write("\n".join(lines) + "\n")


def import_tree(out, count):
    """`count` type files under types/, file k importing files 2k+1 and 2k+2; each defines
    three node types (the last one the application chain's root). Returns the root's path."""
    for k in range(count):
        lines = [f"tosca_definitions_version: {V13}", "imports:"]
        children = [c for c in (2 * k + 1, 2 * k + 2) if c < count]
        lines += [f"  - t{c}.yaml" for c in children] if children else ["  []"]
        if not children:
            lines = [f"tosca_definitions_version: {V13}"]
        lines.append("node_types:")
        for j in range(3):
            lines += [
                f"  bench.t{k}.Type{j}:",
                "    derived_from: tosca.nodes.SoftwareComponent",
                "    properties:",
                f"      p{j}: {{ type: string, default: t{k}-{j} }}",
            ]
        write(os.path.join(out, "types", f"t{k}.yaml"), lines)
    return "types/t0.yaml"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--units", type=int, required=True, help="units of six node templates (2.0: three)")
    ap.add_argument("--dialect", choices=["1.3", "2.0"], default="1.3")
    ap.add_argument("--type-files", type=int, default=0, help="import this many type files (1.3)")
    ap.add_argument(
        "--no-storage",
        action="store_true",
        help="leave out the block storage (tosca-parser 2.15 refuses 1.3's Storage.BlockStorage)",
    )
    ap.add_argument("-o", "--out", required=True, help="folder to write service.yaml into")
    args = ap.parse_args()
    out = args.out
    if args.dialect == "2.0":
        lines = [f"tosca_definitions_version: {V20}"] + types_20()
        lines += ["service_template:", "  inputs:", "    cpus: { type: integer, default: 2 }", "  node_templates:"]
        for i in range(args.units):
            lines += unit_20(i)
        write(os.path.join(out, "service.yaml"), lines)
        return
    lines = [f"tosca_definitions_version: {V13}"]
    if args.type_files:
        lines += ["imports:", f"  - {import_tree(out, args.type_files)}"]
    lines += custom_types_13()
    lines += ["topology_template:"] + inputs_13() + ["  node_templates:"]
    for i in range(args.units):
        lines += unit_13(i, "bench.AppLevel5", storage=not args.no_storage)
    write(os.path.join(out, "service.yaml"), lines)
    write(os.path.join(out, "scripts", "install.sh"), ["#!/bin/sh", "echo install"])
    write(os.path.join(out, "scripts", "configure.sh"), ["#!/bin/sh", "echo configure \"$db_host\""])


if __name__ == "__main__":
    main()
