-- Runs once, when the compose Postgres volume is created: svix-server keeps its state in a
-- database of its own, beside Breakwater's (POSTGRES_DB creates `breakwater`).
CREATE DATABASE svix;
