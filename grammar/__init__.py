"""Data package: shipped inside the wheel as monopoly.grammar."""
