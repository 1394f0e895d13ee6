"""Messages in a language the assistant does not answer in."""
import pytest

from chatbot.other_languages import other_language


@pytest.mark.parametrize("message, language", [
    ("¿Puedo devolver un producto?", "Spanish"), ("Hola, quiero devolver mi pedido", "Spanish"),
    ("Puis-je retourner un article ?", "French"), ("Où est ma commande ?", "French"),
    ("Kann ich meine Bestellung zurückgeben?", "German"), ("Posso devolver o produto?", "Portuguese"),
    ("返品できますか？", "Japanese"), ("환불 가능한가요?", "Korean")])
def test_a_message_in_another_language_is_named(message, language):
    assert other_language(message) == language


@pytest.mark.parametrize("message", [
    "Do you ship to Los Angeles?", "Do you ship as a gift?", "Can I return it to the store in San Diego?",
    "Is chat open on Mon until 8 p.m. EST?", "My son broke the café table", "可以用 Apple Pay 付款吗？",
    "能寄到德国吗？", "Die-cast model arrived with a broken wheel", ""])
def test_english_and_chinese_with_a_foreign_name_or_word_are_no_other_language(message):
    assert other_language(message) is None
