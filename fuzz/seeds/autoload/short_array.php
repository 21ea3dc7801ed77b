<?php
return [
    'A\\B' => 'vendor/a/B.php',
    'eZX' => 'kernel/x.php'
];
