<?php /* #?ini charset="utf-8"?

[SiteSettings]
SiteName=Example (English)
IndexPage=/content/view/full/60
DefaultPage=/content/view/full/60

[SiteAccessSettings]
RequireUserLogin=false
ShowHiddenNodes=false

[RegionalSettings]
Locale=eng-GB
ContentObjectLocale=eng-GB
SiteLanguageList[]
SiteLanguageList[]=eng-GB
TextTranslation=disabled

[DesignSettings]
SiteDesign=ezwebin
AdditionalSiteDesignList[]
AdditionalSiteDesignList[]=standard
AdditionalSiteDesignList[]=base
*/ ?>
