-- Neovim headless as a second real client of `toscana lsp` (run by tests/lsp.rs):
-- opens a template with an error, waits for the diagnostic, checks its line and column, and
-- resolves a definition. Exits 0 when all holds, 1 with the reason on standard output.
-- Written for Neovim 0.7 (Debian's), whose LSP client API is `vim.lsp.start_client`.
local bin = os.getenv("TOSCANA_BIN")
local file = os.getenv("TOSCANA_TEMPLATE")

local function fail(message)
  io.stdout:write("FAIL: " .. message .. "\n")
  vim.cmd("cquit 1")
end

vim.cmd("edit " .. vim.fn.fnameescape(file))
local buffer = vim.api.nvim_get_current_buf()
local client = vim.lsp.start_client({
  cmd = { bin, "lsp" },
  root_dir = vim.fn.fnamemodify(file, ":h"),
})
if not client then
  fail("the server did not start")
end
vim.lsp.buf_attach_client(buffer, client)

local got = vim.wait(20000, function()
  return #vim.diagnostic.get(buffer) > 0
end, 50)
if not got then
  fail("no diagnostic arrived")
end
local d = vim.diagnostic.get(buffer)[1]
-- `{ get_input: prot }` at line 22, column 15 (1-based) as `toscana check` reports it.
if d.lnum ~= 21 or d.col ~= 14 or d.code ~= "tosca::unknown-name" then
  fail(string.format("diagnostic %s at %d:%d", tostring(d.code), d.lnum, d.col))
end

-- Go to the definition of `server` in `- host: server` (line 18, 1-based).
local params = {
  textDocument = { uri = vim.uri_from_bufnr(buffer) },
  position = { line = 17, character = 17 },
}
local responses = vim.lsp.buf_request_sync(buffer, "textDocument/definition", params, 20000)
local result = responses and responses[client] and responses[client].result
if not result then
  fail("no definition")
end
local location = result[1] or result
if location.uri ~= vim.uri_from_bufnr(buffer) or location.range.start.line ~= 12 then
  fail("definition at " .. vim.inspect(location))
end
io.stdout:write("ok\n")
vim.lsp.stop_client(client)
vim.cmd("qa!")
