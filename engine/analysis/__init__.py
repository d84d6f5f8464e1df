"""The designer's workbench: exact landing odds, money tables, the board drawn, reports."""
