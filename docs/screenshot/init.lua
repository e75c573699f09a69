-- Neovim's configuration for docs/screenshot/make.py: a plain editor with line numbers that
-- starts `toscana lsp` (TOSCANA_BIN) for the file it opens, with diagnostics shown as virtual
-- text and `K` for hover (in a bordered window). Written for Neovim 0.7 (Debian's), whose LSP client API is `vim.lsp.start_client`.
vim.o.number = true
vim.o.background = "dark"
vim.o.ruler = false
vim.o.showmode = false
vim.o.laststatus = 0
vim.o.shortmess = vim.o.shortmess .. "sI"
vim.cmd("syntax on")
vim.diagnostic.config({ virtual_text = true, signs = true, underline = true })
vim.lsp.handlers["textDocument/hover"] = vim.lsp.with(vim.lsp.handlers.hover, { border = "rounded" })
vim.keymap.set("n", "K", vim.lsp.buf.hover)
vim.api.nvim_create_autocmd("FileType", {
  pattern = "yaml",
  callback = function(args)
    local client = vim.lsp.start_client({
      name = "toscana",
      cmd = { os.getenv("TOSCANA_BIN"), "lsp" },
      root_dir = vim.fn.getcwd(),
    })
    vim.lsp.buf_attach_client(args.buf, client)
  end,
})
