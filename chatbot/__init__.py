"""Northwind support assistant: knowledge base, SoT planner, guards, store, service, API and CLI."""
