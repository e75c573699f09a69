"""`toscana lsp` end to end: the real binary over stdio, driven by pytest-lsp (a real client).

One server for the whole file, on a copy of `workspace/` (a Simple Profile 1.3 template with its
type file, a TOSCA 2.0 service, a TOSCA 1.0 XML Definitions file). Run by `tests/lsp.rs`, which
passes the binary in TOSCANA_BIN.

The server publishes the diagnostics of due checks before it answers a request, so a request
after an edit sees them; no test waits on a clock.
"""

import os
import pathlib
import shutil
import tempfile

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

HERE = pathlib.Path(__file__).parent
ROOT = pathlib.Path(tempfile.mkdtemp(prefix="toscana-lsp-")).resolve()
shutil.copytree(HERE / "workspace", ROOT / "workspace")
WORKSPACE = ROOT / "workspace"
CACHE = ROOT / "cache"

APP = WORKSPACE / "simple" / "app.yaml"
TYPES = WORKSPACE / "simple" / "types.yaml"
SERVICE = WORKSPACE / "tosca2" / "service.yaml"
XML = WORKSPACE / "xml" / "shop.xml"


def uri(path):
    return path.as_uri()


@pytest_lsp.fixture(
    scope="module",
    config=ClientServerConfig(
        server_command=[os.environ.get("TOSCANA_BIN", "toscana"), "lsp", "--stdio"],
        server_env={**os.environ, "XDG_CACHE_HOME": str(CACHE)},
    ),
)
async def client(lsp_client: LanguageClient):
    await lsp_client.initialize_session(
        types.InitializeParams(
            capabilities=types.ClientCapabilities(),
            workspace_folders=[types.WorkspaceFolder(uri=uri(WORKSPACE), name="workspace")],
        )
    )
    for path, language in [(APP, "yaml"), (TYPES, "yaml"), (SERVICE, "yaml"), (XML, "xml")]:
        lsp_client.text_document_did_open(
            types.DidOpenTextDocumentParams(
                text_document=types.TextDocumentItem(
                    uri=uri(path), language_id=language, version=1, text=path.read_text()
                )
            )
        )
    yield
    await lsp_client.shutdown_session()


def at(path, line, character):
    return types.TextDocumentIdentifier(uri=uri(path)), types.Position(line=line, character=character)


async def hover(client, path, line, character):
    document, position = at(path, line, character)
    result = await client.text_document_hover_async(
        types.HoverParams(text_document=document, position=position)
    )
    return result.contents.value if result else None


async def definition(client, path, line, character):
    document, position = at(path, line, character)
    result = await client.text_document_definition_async(
        types.DefinitionParams(text_document=document, position=position)
    )
    return result


def replace_all(client, path, text, version):
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri(path), version=version),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)],
        )
    )


# ----- diagnostics ------------------------------------------------------------------------


@pytest.mark.asyncio(loop_scope="module")
async def test_diagnostics_are_those_of_check_at_utf16_ranges(client):
    await hover(client, APP, 0, 0)
    found = client.diagnostics[uri(APP)]
    assert len(found) == 1
    d = found[0]
    assert d.code == "tosca::unknown-name"
    assert d.severity == types.DiagnosticSeverity.Error
    assert "undefined input `prot`" in d.message
    assert "did you mean `port`?" in d.message
    # `{ get_input: prot }` on line 22, column 15 (1-based) as `toscana check` says.
    assert (d.range.start.line, d.range.start.character) == (21, 14)
    assert (d.range.end.line, d.range.end.character) == (21, 33)
    # The code links to its explain page, written read-only.
    page = pathlib.Path(d.code_description.href.removeprefix("file://"))
    assert "tosca::unknown-name" in page.read_text()
    assert not os.access(page, os.W_OK) or os.geteuid() == 0
    assert list(client.diagnostics.get(uri(TYPES), [])) == []


@pytest.mark.asyncio(loop_scope="module")
async def test_xml_diagnostics_point_into_the_xml(client):
    await hover(client, XML, 0, 0)
    found = client.diagnostics[uri(XML)]
    assert [d.code for d in found] == ["xml::qname"]
    assert (found[0].range.start.line, found[0].range.start.character) == (12, 55)


@pytest.mark.asyncio(loop_scope="module")
async def test_an_edit_to_an_imported_file_rechecks_its_importer(client):
    original = TYPES.read_text()
    # Drop the `port` property from the type: the template that sets it is now wrong.
    broken = original.replace("      port:\n        type: integer\n        description: The port the shop listens on.\n        default: 8080\n", "")
    replace_all(client, TYPES, broken, 2)
    await hover(client, TYPES, 0, 0)
    messages = [d.message for d in client.diagnostics[uri(APP)]]
    assert any("port" in m and "prot" not in m for m in messages), messages
    replace_all(client, TYPES, original, 3)
    await hover(client, TYPES, 0, 0)
    assert len(client.diagnostics[uri(APP)]) == 1


@pytest.mark.asyncio(loop_scope="module")
async def test_a_broken_document_mid_edit_gets_a_yaml_diagnostic_and_keeps_completion(client):
    original = SERVICE.read_text()
    broken = original.replace("      type: simple:Compute\n", "      type: simple:Compute\n      capabilities: {\n")
    replace_all(client, SERVICE, broken, 2)
    await hover(client, SERVICE, 0, 0)
    codes = [d.code for d in client.diagnostics[uri(SERVICE)]]
    assert codes and all(c.startswith("yaml::") for c in codes), codes
    # Completion still knows the types while the text does not read.
    document, position = at(SERVICE, 11, 19)
    result = await client.text_document_completion_async(
        types.CompletionParams(text_document=document, position=position)
    )
    labels = [i.label for i in result]
    assert any(label.endswith("Compute") for label in labels), labels
    replace_all(client, SERVICE, original, 3)
    await hover(client, SERVICE, 0, 0)
    assert list(client.diagnostics.get(uri(SERVICE), [])) == []


# ----- hover ------------------------------------------------------------------------------


@pytest.mark.asyncio(loop_scope="module")
async def test_hover_on_a_type_shows_its_derivation_and_description(client):
    text = await hover(client, APP, 19, 16)  # shop.nodes.WebApp
    assert "**node type** `shop.nodes.WebApp`" in text
    assert "`tosca.nodes.WebApplication` → `tosca.nodes.Root`" in text
    assert "The shop's web front." in text


@pytest.mark.asyncio(loop_scope="module")
async def test_hover_on_a_property_shows_its_definition(client):
    text = await hover(client, APP, 21, 9)  # port:
    assert "**property** `port` of `shop.nodes.WebApp`" in text
    assert "type: integer" in text and "default: 8080" in text
    assert "The port the shop listens on." in text


@pytest.mark.asyncio(loop_scope="module")
async def test_hover_on_an_input_and_a_keyname(client):
    text = await hover(client, SERVICE, 14, 50)  # $get_input: cpus
    assert "**input** `cpus`: `integer`" in text and "default: `2`" in text
    text = await hover(client, APP, 6, 3)  # topology_template
    assert "service template" in text and "Simple Profile" in text


@pytest.mark.asyncio(loop_scope="module")
async def test_hover_on_an_xml_type(client):
    text = await hover(client, XML, 10, 40)  # type="app:Shop"
    assert text is not None and "Shop" in text


# ----- definition, references, rename -----------------------------------------------------


@pytest.mark.asyncio(loop_scope="module")
async def test_definition_of_a_type_in_another_file(client):
    result = await definition(client, APP, 19, 16)
    assert result.uri == uri(TYPES)
    assert result.range.start.line == 4


@pytest.mark.asyncio(loop_scope="module")
async def test_definition_of_a_normative_type_opens_the_embedded_profile(client):
    result = await definition(client, APP, 13, 20)  # tosca.nodes.Compute
    path = pathlib.Path(result.uri.removeprefix("file://"))
    assert path.is_relative_to(CACHE)
    line = path.read_text().splitlines()[result.range.start.line]
    assert "tosca.nodes.Compute" in line


@pytest.mark.asyncio(loop_scope="module")
async def test_definition_of_a_requirement_target_an_input_and_an_import(client):
    result = await definition(client, APP, 17, 17)  # host: server
    assert (result.uri, result.range.start.line) == (uri(APP), 12)
    result = await definition(client, SERVICE, 14, 50)  # $get_input: cpus
    assert (result.uri, result.range.start.line) == (uri(SERVICE), 6)
    result = await definition(client, APP, 4, 6)  # - types.yaml
    assert result.uri == uri(TYPES)


@pytest.mark.asyncio(loop_scope="module")
async def test_definition_in_xml(client):
    result = await definition(client, XML, 10, 40)  # type="app:Shop"
    assert result is not None and result.uri == uri(XML) and result.range.start.line == 4


@pytest.mark.asyncio(loop_scope="module")
async def test_references_of_a_node_template(client):
    document, position = at(APP, 12, 5)  # server:
    result = await client.text_document_references_async(
        types.ReferenceParams(
            text_document=document,
            position=position,
            context=types.ReferenceContext(include_declaration=True),
        )
    )
    lines = sorted(r.range.start.line for r in result)
    assert lines == [12, 17]


@pytest.mark.asyncio(loop_scope="module")
async def test_rename_a_node_template_updates_every_reference(client):
    document, position = at(APP, 14, 5)  # web:
    prepared = await client.text_document_prepare_rename_async(
        types.PrepareRenameParams(text_document=document, position=position)
    )
    assert (prepared.start.line, prepared.start.character, prepared.end.character) == (14, 4, 7)
    edit = await client.text_document_rename_async(
        types.RenameParams(text_document=document, position=position, new_name="front")
    )
    edits = edit.changes[uri(APP)]
    assert sorted((e.range.start.line, e.range.start.character) for e in edits) == [(14, 4), (24, 16)]
    assert all(e.new_text == "front" for e in edits)


@pytest.mark.asyncio(loop_scope="module")
async def test_rename_refuses_a_taken_name(client):
    document, position = at(APP, 14, 5)
    with pytest.raises(Exception, match="already defined"):
        await client.text_document_rename_async(
            types.RenameParams(text_document=document, position=position, new_name="server")
        )


# ----- symbols ----------------------------------------------------------------------------


@pytest.mark.asyncio(loop_scope="module")
async def test_document_outline(client):
    result = await client.text_document_document_symbol_async(
        types.DocumentSymbolParams(text_document=types.TextDocumentIdentifier(uri=uri(APP)))
    )
    outline = {s.name: [c.name for c in s.children] for s in result}
    assert outline == {"inputs": ["port"], "node_templates": ["server", "web", "shop"]}


@pytest.mark.asyncio(loop_scope="module")
async def test_workspace_symbols_span_the_workspace(client):
    result = await client.workspace_symbol_async(types.WorkspaceSymbolParams(query="shop"))
    names = {(s.name, pathlib.Path(s.location.uri).name) for s in result}
    assert ("shop.nodes.WebApp", "types.yaml") in names
    assert ("shop", "app.yaml") in names
    assert ("Shop", "shop.xml") in names


# ----- completion -------------------------------------------------------------------------


async def complete(client, path, line, character):
    document, position = at(path, line, character)
    result = await client.text_document_completion_async(
        types.CompletionParams(text_document=document, position=position)
    )
    return [i.label for i in result]


@pytest.mark.asyncio(loop_scope="module")
async def test_completion_of_keynames_types_properties_targets_and_inputs(client):
    original = APP.read_text()
    lines = original.splitlines()
    # A new node template being typed, then the pieces of it.
    lines.insert(25, "    db:")
    lines.insert(26, "      ty")
    replace_all(client, APP, "\n".join(lines) + "\n", 10)
    labels = await complete(client, APP, 26, 8)
    assert "type" in labels and "properties" in labels and "requirements" in labels
    lines[26] = "      type: "
    replace_all(client, APP, "\n".join(lines) + "\n", 11)
    labels = await complete(client, APP, 26, 12)
    assert "tosca.nodes.Database" in labels and "shop.nodes.WebApp" in labels
    assert "tosca.relationships.HostedOn" not in labels
    # Properties of the shop's type, inherited ones included.
    labels = await complete(client, APP, 21, 8)
    assert {"port", "admin_email", "context_root"} <= set(labels)
    # A host for the shop: its type asks for a `tosca.nodes.WebServer` with a Container
    # capability, which `server` (a Compute) is not.
    labels = await complete(client, APP, 24, 16)
    assert labels == ["web"]
    labels = await complete(client, APP, 21, 27)  # get_input: pr|
    assert labels == ["port"]
    replace_all(client, APP, original, 12)


FILTERED = """
    small:
      type: tosca.nodes.Compute
      capabilities:
        host:
          properties:
            num_cpus: 1
    big:
      type: tosca.nodes.Compute
      capabilities:
        host:
          properties:
            num_cpus: 8
    db:
      type: tosca.nodes.DBMS
      requirements:
        - host:
            node: tosca.nodes.Compute
            node_filter:
              capabilities:
                - host:
                    properties:
                      - num_cpus: { greater_or_equal: 4 }
        - dependency:
            node: tosca.nodes.Root
            capability: tosca.capabilities.Container
"""


@pytest.mark.asyncio(loop_scope="module")
async def test_completion_of_targets_honours_node_filter_and_capability(client):
    original = APP.read_text()
    text = original + FILTERED
    replace_all(client, APP, text, 13)
    lines = text.splitlines()
    host = next(i for i, l in enumerate(lines) if l == "            node: tosca.nodes.Compute")
    # Three Computes could host the DBMS; the filter wants 4 CPUs or more: `big` only (`server`
    # sets no `num_cpus`, `small` has 1).
    labels = await complete(client, APP, host, len("            node: "))
    assert labels == ["big"], labels
    # `capability: tosca.capabilities.Container` in the assignment: the Computes and the web
    # server have one (Compute's `host` derives from it), the shop does not.
    dependency = next(i for i, l in enumerate(lines) if l == "            node: tosca.nodes.Root")
    labels = await complete(client, APP, dependency, len("            node: "))
    assert sorted(labels) == ["big", "server", "small", "web"], labels
    replace_all(client, APP, original, 14)


@pytest.mark.asyncio(loop_scope="module")
async def test_completion_of_tosca2_functions(client):
    original = SERVICE.read_text()
    replace_all(client, SERVICE, original.replace("{ $get_input: cpus }", "{ $con"), 20)
    labels = await complete(client, SERVICE, 14, 40)
    assert "$concat" in labels and "$get_input" in labels
    replace_all(client, SERVICE, original, 21)


FILTERED_2 = """
    small:
      type: simple:Compute
      capabilities:
        host:
          properties: { num_cpus: 1, mem_size: 1 GB }
    open:
      type: simple:Compute
    app:
      type: simple:SoftwareComponent
      requirements:
        - host:
            node: vm
            node_filter:
              $and:
                - $greater_or_equal:
                    - $get_property: [ SELF, CAPABILITY, num_cpus ]
                    - $get_input: cpus
                - $greater_or_equal: [ { $get_property: [ SELF, CAPABILITY, mem_size ] }, 2 GB ]
        - dependency:
            node: vm
            node_filter:
              $or:
                - $equal: [ { $get_property: [ SELF, TARGET, CAPABILITY, host, num_cpus ] }, 1 ]
                - $get_attribute: [ SELF, TARGET, tosca_id ]
"""


@pytest.mark.asyncio(loop_scope="module")
async def test_completion_of_targets_honours_a_tosca2_node_filter(client):
    original = SERVICE.read_text()
    text = original + FILTERED_2
    replace_all(client, SERVICE, text, 22)
    lines = text.splitlines()
    host, dependency = [i for i, l in enumerate(lines) if l == "            node: vm"]
    # `vm` has `$get_input: cpus` (2) CPUs and 4 GB: it passes; `small` has 1 CPU and 1 GB: the
    # filter is false for it; `open` sets neither, which only deployment knows: it stays.
    labels = await complete(client, SERVICE, host, len("            node: "))
    assert sorted(labels) == ["open", "vm"], labels
    # `$or` with an attribute (known at deployment): no candidate is ruled out.
    labels = await complete(client, SERVICE, dependency, len("            node: "))
    assert sorted(labels) == ["open", "small", "vm"], labels
    replace_all(client, SERVICE, original, 23)


# ----- code actions -----------------------------------------------------------------------


async def fixes(client, path, code):
    """The code actions offered for the diagnostics of `code` in `path`."""
    await hover(client, path, 0, 0)
    found = [d for d in client.diagnostics[uri(path)] if d.code == code]
    assert found, client.diagnostics[uri(path)]
    result = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=uri(path)),
            range=found[0].range,
            context=types.CodeActionContext(diagnostics=found),
        )
    )
    return [(a.title, a.edit.changes[uri(path)]) for a in result]


@pytest.mark.asyncio(loop_scope="module")
async def test_code_action_fixes_the_typo_the_hint_names(client):
    ((title, (edit,)),) = await fixes(client, APP, "tosca::unknown-name")
    assert title == "Replace `prot` with `port`"
    assert (edit.range.start.line, edit.range.start.character, edit.range.end.character) == (21, 27, 31)
    assert edit.new_text == "port"


@pytest.mark.asyncio(loop_scope="module")
async def test_code_action_adds_a_required_property(client):
    original = APP.read_text()
    replace_all(client, APP, original.replace("        admin_email: ops@example.com\n", ""), 30)
    ((title, (edit,)),) = await fixes(client, APP, "tosca::missing-keyname")
    assert title == "Add the required property `admin_email`"
    assert edit.new_text == "        admin_email: \n"
    assert edit.range.start.line == 21
    replace_all(client, APP, original, 31)


# ----- what is not TOSCA --------------------------------------------------------------------


@pytest.mark.asyncio(loop_scope="module")
async def test_a_yaml_file_that_is_not_tosca_gets_no_diagnostics(client):
    other = WORKSPACE / "other" / "workflow.yaml"
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(
                uri=uri(other), language_id="yaml", version=1, text=other.read_text()
            )
        )
    )
    assert await hover(client, other, 0, 1) is None
    assert list(client.diagnostics.get(uri(other), [])) == []


@pytest.mark.asyncio(loop_scope="module")
async def test_a_name_the_xml_front_end_made_up_leads_nowhere(client):
    # `<SourceElement ref="front"/>` is filed as a requirement of `front`, whose name is not
    # written there; and an XML type without DerivedFrom has no written parent.
    assert await definition(client, XML, 13, 30) is None
    assert await definition(client, XML, 4, 4) is None


@pytest.mark.asyncio(loop_scope="module")
async def test_code_action_imports_the_profile_a_type_comes_from(client):
    original = SERVICE.read_text()
    text = original.replace(
        "imports:\n  - profile: org.oasis-open.simple:2.0\n    namespace: simple\n", ""
    ).replace("simple:Compute", "Compute")
    replace_all(client, SERVICE, text, 40)
    ((title, (edit,)),) = await fixes(client, SERVICE, "tosca::unknown-type")
    assert title == "Import the profile `org.oasis-open.simple:2.0`"
    assert (edit.range.start.line, edit.new_text) == (1, "imports:\n  - profile: org.oasis-open.simple:2.0\n")
    replace_all(client, SERVICE, original, 41)


@pytest.mark.asyncio(loop_scope="module")
async def test_hover_on_a_function_call_says_what_it_evaluates_to(client):
    original = APP.read_text()
    replace_all(client, APP, original.replace("get_input: prot", "get_input: port"), 50)
    text = await hover(client, APP, 21, 18)  # get_input
    assert text.startswith("**`get_input`**: the value of an input of the service template"), text
    assert text.endswith("`port` of `shop` evaluates to `80`"), text
    text = await hover(client, APP, 21, 29)  # port (the input)
    assert "**input** `port`: `integer`" in text and "evaluates to `80`" in text
    replace_all(client, APP, original, 51)


@pytest.mark.asyncio(loop_scope="module")
async def test_hover_on_any_call_nested_in_outputs_or_at_deployment(client):
    original = APP.read_text()
    text = original.replace("get_input: prot", "get_input: port").replace(
        "admin_email: ops@example.com",
        'admin_email: { concat: [ "ops@", { get_property: [ SELF, port ] } ] }',
    ) + (
        "  outputs:\n"
        "    address:\n"
        "      value: { get_attribute: [ server, public_address ] }\n"
        "    url:\n"
        '      value: { join: [ [ "http://shop", { get_input: port } ], ":" ] }\n'
    )
    replace_all(client, APP, text, 52)
    hovered = await hover(client, APP, 22, 24)  # concat
    assert hovered.startswith("**`concat`**: the strings given"), hovered
    assert hovered.endswith('`admin_email` of `shop` evaluates to `"ops@80"`'), hovered
    hovered = await hover(client, APP, 22, 45)  # get_property, inside concat's arguments
    assert hovered.startswith("**`get_property`**"), hovered
    assert hovered.endswith("evaluates to `80`"), hovered
    hovered = await hover(client, APP, 27, 18)  # get_attribute in an output
    assert hovered.endswith("known only at deployment"), hovered
    hovered = await hover(client, APP, 29, 18)  # join in an output
    assert hovered.endswith('evaluates to `"http://shop:80"`'), hovered
    replace_all(client, APP, original, 53)
    # TOSCA 2.0: a `$` call in a capability's properties, with the function's section.
    hovered = await hover(client, SERVICE, 14, 40)  # $get_input
    assert hovered.startswith("**`$get_input`**: `$get_input: "), hovered
    assert hovered.endswith("`capabilities.host.properties.num_cpus` of `vm` evaluates to `2`"), hovered


# ----- keynames by exact version ----------------------------------------------------------


OLD = WORKSPACE / "simple" / "old.yaml"
OLD_TEXT = """tosca_definitions_version: tosca_simple_yaml_1_0
topology_template:
  workflows: {}
  node_templates:
    server:
      type: tosca.nodes.Compute
      properties: {}
"""


def open_document(client, path, text, language="yaml"):
    path.write_text(text)
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(
                uri=uri(path), language_id=language, version=1, text=text
            )
        )
    )


@pytest.mark.asyncio(loop_scope="module")
async def test_keyname_hover_names_the_files_exact_version(client):
    open_document(client, OLD, OLD_TEXT)
    text = await hover(client, OLD, 2, 4)  # workflows, which came with 1.1
    assert text.startswith("**`workflows`**: not a keyname here in Simple Profile 1.0;"), text
    assert "Simple Profile 1.1 has it" in text
    text = await hover(client, OLD, 5, 7)  # type
    assert text.endswith("(Simple Profile 1.0)"), text
    # A node template's name is no keyname.
    assert "keyname" not in (await hover(client, OLD, 4, 5) or "")
    replace_all(client, OLD, OLD_TEXT.replace("1_0", "1_1"), 2)
    text = await hover(client, OLD, 2, 4)
    assert text.endswith("(Simple Profile 1.1)"), text
    text = await hover(client, APP, 6, 3)  # topology_template
    assert text.endswith("(Simple Profile 1.3)"), text
    text = await hover(client, SERVICE, 4, 3)  # service_template
    assert text.endswith("(TOSCA 2.0)"), text
    # The keynames offered are those of the exact version: 1.1 has no `key_schema` yet.
    replace_all(client, OLD, OLD_TEXT.replace("1_0", "1_1").replace("  workflows: {}\n", "  inputs:\n    size:\n      \n"), 3)
    labels = await complete(client, OLD, 4, 6)
    assert "entry_schema" in labels and "key_schema" not in labels, labels
    replace_all(client, OLD, OLD_TEXT.replace("1_0", "1_3").replace("  workflows: {}\n", "  inputs:\n    size:\n      \n"), 4)
    labels = await complete(client, OLD, 4, 6)
    assert "key_schema" in labels, labels


# ----- the missing import -----------------------------------------------------------------


@pytest.mark.asyncio(loop_scope="module")
async def test_code_action_imports_the_workspace_file_that_defines_a_type(client):
    original = APP.read_text()
    replace_all(client, APP, original.replace("imports:\n  - types.yaml\n", ""), 60)
    actions = await fixes(client, APP, "tosca::unknown-type")
    assert [title for title, _ in actions] == ["Import `types.yaml`, which defines `shop.nodes.WebApp`"]
    ((edit,),) = [edits for _, edits in actions]
    assert (edit.range.start.line, edit.new_text) == (1, "imports:\n  - types.yaml\n")
    # With an `imports:` list, the file is added as its last item, indented as the others.
    text = original.replace("  - types.yaml\n", "  - other.yaml\n")
    (WORKSPACE / "simple" / "other.yaml").write_text("tosca_definitions_version: tosca_simple_yaml_1_3\n")
    replace_all(client, APP, text, 61)
    ((title, (edit,)),) = await fixes(client, APP, "tosca::unknown-type")
    assert (edit.range.start.line, edit.new_text) == (5, "  - types.yaml\n")
    replace_all(client, APP, original, 62)


@pytest.mark.asyncio(loop_scope="module")
async def test_code_action_imports_a_profile_with_its_namespace_or_a_1x_normative_type(client):
    original = SERVICE.read_text()
    without = original.replace(
        "imports:\n  - profile: org.oasis-open.simple:2.0\n    namespace: simple\n", ""
    )
    replace_all(client, SERVICE, without, 70)
    ((title, (edit,)),) = await fixes(client, SERVICE, "tosca::unknown-namespace")
    assert title == "Import the profile `org.oasis-open.simple:2.0`"
    assert edit.new_text == "imports:\n  - profile: org.oasis-open.simple:2.0\n    namespace: simple\n"
    # A Simple Profile normative type in a 2.0 file: its compatibility profile.
    replace_all(client, SERVICE, without.replace("simple:Compute", "tosca.nodes.Compute"), 71)
    ((title, (edit,)),) = await fixes(client, SERVICE, "tosca::unknown-type")
    assert title == "Import the profile `org.oasis-open.simple:1.3`", title
    # A type of a 2.0 file of the workspace: imported by `url`.
    types2 = WORKSPACE / "tosca2" / "servers.yaml"
    open_document(
        client,
        types2,
        "tosca_definitions_version: tosca_2_0\nnode_types:\n  Server:\n    description: A server.\n",
    )
    replace_all(client, SERVICE, without.replace("simple:Compute", "Server").replace(
        "      capabilities:\n        host:\n          properties: { num_cpus: { $get_input: cpus }, mem_size: 4 GB }\n", ""), 72)
    actions = await fixes(client, SERVICE, "tosca::unknown-type")
    assert ("Import `servers.yaml`, which defines `Server`", "imports:\n  - url: servers.yaml\n") in [
        (title, edit.new_text) for title, (edit,) in actions
    ], actions
    replace_all(client, SERVICE, original, 73)


# ----- TOSCA 1.0 XML elements and attributes ------------------------------------------------


@pytest.mark.asyncio(loop_scope="module")
async def test_xml_element_and_attribute_hover(client):
    text = await hover(client, XML, 10, 10)  # <NodeTemplate
    assert text.startswith("**`<NodeTemplate>`**: a component of the service"), text
    assert "(TOSCA 1.0 §5 Service Templates)" in text and "`minInstances`" in text
    text = await hover(client, XML, 10, 20)  # id=
    assert text.startswith("**`id`** of `<NodeTemplate>`: the identifier"), text
    text = await hover(client, XML, 4, 5)  # <NodeType
    assert "(TOSCA 1.0 §6 Node Types)" in text and "`<RequirementDefinitions>`" in text


@pytest.mark.asyncio(loop_scope="module")
async def test_xml_element_and_attribute_completion(client):
    original = XML.read_text()
    lines = original.splitlines()
    lines.insert(12, "      <")
    replace_all(client, XML, "\n".join(lines) + "\n", 10)
    labels = await complete(client, XML, 12, 7)
    assert labels == ["documentation", "NodeTemplate", "RelationshipTemplate"], labels
    lines[12] = '      <NodeTemplate id="db" '
    replace_all(client, XML, "\n".join(lines) + "\n", 11)
    labels = await complete(client, XML, 12, len(lines[12]))
    assert labels == ["name", "type", "minInstances", "maxInstances"], labels
    # Under a node type, the elements of a node type.
    lines[12] = "      <NodeTemplate/>"
    lines.insert(6, "    <")
    replace_all(client, XML, "\n".join(lines) + "\n", 12)
    labels = await complete(client, XML, 6, 5)
    assert "RequirementDefinitions" in labels and "NodeTemplate" not in labels, labels
    replace_all(client, XML, original, 13)


@pytest.mark.asyncio(loop_scope="module")
async def test_code_action_adds_a_required_property_in_tosca2(client):
    original = SERVICE.read_text()
    types2 = WORKSPACE / "tosca2" / "sized.yaml"
    open_document(
        client,
        types2,
        "tosca_definitions_version: tosca_2_0\nnode_types:\n  Sized:\n    properties:\n      size:\n        type: integer\n",
    )
    text = original.replace(
        "  node_templates:\n",
        "  node_templates:\n    box:\n      type: Sized\n",
    ).replace("imports:\n", "imports:\n  - url: sized.yaml\n")
    replace_all(client, SERVICE, text, 80)
    ((title, (edit,)),) = await fixes(client, SERVICE, "tosca::missing-keyname")
    assert title == "Add the required property `size`"
    assert (edit.range.start.line, edit.new_text) == (12, "      properties:\n        size: \n")
    replace_all(client, SERVICE, original, 81)
