"""The production server as a subprocess: crash recovery and concurrent recording."""
