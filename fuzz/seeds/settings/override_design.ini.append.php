<?php /* #?ini charset="utf-8"?

[StylesheetSettings]
CSSFileList[]=example-theme.css
FrontendCSSFileList[]
*/ ?>
