//! The format's elements and where each may stand.

/// The format's elements.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Elem {
    Ts,
    Context,
    Name,
    Message,
    Location,
    Source,
    Comment,
    TranslatorComment,
    ExtraComment,
    Translation,
    NumerusForm,
    Byte,
}

impl Elem {
    pub(super) fn from_name(name: &str) -> Option<Elem> {
        Some(match name {
            "TS" => Elem::Ts,
            "context" => Elem::Context,
            "name" => Elem::Name,
            "message" => Elem::Message,
            "location" => Elem::Location,
            "source" => Elem::Source,
            "comment" => Elem::Comment,
            "translatorcomment" => Elem::TranslatorComment,
            "extracomment" => Elem::ExtraComment,
            "translation" => Elem::Translation,
            "numerusform" => Elem::NumerusForm,
            "byte" => Elem::Byte,
            _ => return None,
        })
    }

    pub(super) fn name(self) -> &'static str {
        match self {
            Elem::Ts => "TS",
            Elem::Context => "context",
            Elem::Name => "name",
            Elem::Message => "message",
            Elem::Location => "location",
            Elem::Source => "source",
            Elem::Comment => "comment",
            Elem::TranslatorComment => "translatorcomment",
            Elem::ExtraComment => "extracomment",
            Elem::Translation => "translation",
            Elem::NumerusForm => "numerusform",
            Elem::Byte => "byte",
        }
    }

    /// Whether `child` may stand directly inside `self`.
    pub(super) fn allows(self, child: Elem) -> bool {
        use Elem::*;
        match self {
            Ts => child == Context,
            Context => matches!(child, Name | Message),
            Message => matches!(
                child,
                Location | Source | Comment | TranslatorComment | ExtraComment | Translation
            ),
            Translation => matches!(child, NumerusForm | Byte),
            Name | Source | Comment | TranslatorComment | ExtraComment | NumerusForm => {
                child == Byte
            }
            Location | Byte => false,
        }
    }

    /// Whether the element's character data is a string of the catalogue.
    pub(super) fn holds_text(self) -> bool {
        use Elem::*;
        matches!(
            self,
            Name | Source | Comment | TranslatorComment | ExtraComment | Translation | NumerusForm
        )
    }
}
