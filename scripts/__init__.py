"""The cantoedge command line: one small module per subcommand."""
