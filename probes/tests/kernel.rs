//! The kernel's parts working together: the template engine's `i18n` reads
//! the real translation catalogue and its `ezini` the real settings reader
//! with its override chain, through the traits of `probes::host`.

use probes::fixtures;
use probes::i18n;
use probes::settings::SiteSettings;
use probes::template::{Engine, Vars};
use std::sync::Arc;

/// A plain translated message whose text needs no escaping in a template.
fn plain_message(catalogue: &i18n::Catalogue) -> Option<(String, String, String)> {
    catalogue
        .messages()
        .filter(|m| !m.is_numerus() && m.comment().is_empty() && !m.translation().is_empty())
        .filter(|m| m.source().chars().all(|c| c.is_alphanumeric() || c == ' '))
        .filter(|m| {
            m.translation()
                .chars()
                .all(|c| c.is_alphanumeric() || c == ' ')
        })
        .filter(|m| catalogue.translate(m.context(), m.source(), "") == Some(m.translation()))
        .map(|m| {
            (
                m.context().to_string(),
                m.source().to_string(),
                m.translation().to_string(),
            )
        })
        .next()
}

#[test]
fn templates_translate_through_the_catalogue_and_read_settings_through_the_override_chain() {
    let catalogue = i18n::load_file(&fixtures::path("translations/kernel_de.ts"))
        .expect("fixture catalogue loads");
    let (context, source, translation) =
        plain_message(&catalogue).expect("the fixture has a plain message");
    let settings = SiteSettings::new(vec![
        fixtures::path("settings"),
        fixtures::path("settings/siteaccess/eng"),
        fixtures::path("settings/override"),
    ]);

    let design = tempfile::tempdir().expect("temp dir");
    let dir = design.path().join("standard");
    std::fs::create_dir_all(&dir).expect("design dir");
    std::fs::write(
        dir.join("kernel.tpl"),
        format!(
            "[{{'{source}'|i18n('{context}')}}] [{{'Not in the catalogue %1'|i18n('{context}',, array(7))}}] \
             [{{ezini('SiteSettings', 'SiteName', 'site.ini')}}]"
        ),
    )
    .expect("template written");

    let engine = Engine::new(vec![design.path().join("standard")])
        .with_translator(Arc::new(catalogue))
        .with_settings(Arc::new(settings));
    let out = engine
        .render_uri("design:kernel.tpl", &Vars::new())
        .expect("renders");
    // The override directory comes last, so its SiteName wins over the
    // site-access one and the base file's.
    assert_eq!(
        out,
        format!("[{translation}] [Not in the catalogue 7] [Example Publishing]")
    );
}
